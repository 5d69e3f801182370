// What the request log keeps of a URL (docs/decisions/0051): the path and the query, with the value
// of every parameter that can carry a secret replaced. Links from emails carry their token in the
// query (password reset, email confirmation, invitations, protected files), sign-in providers send
// `code` and `state`, and a form sent by GET may carry a password. Request bodies, cookies and the
// Authorization header are never logged at all.

/** Query parameter names whose values are secrets (case-insensitive, anywhere in the name). */
const SECRET_NAME = /token|password|passwd|secret|code|state|key|sig|otp|auth|session|credential/i;

export const REDACTED = "***";

/** `url` (a path with its query, or an absolute URL) with secret query values replaced; cut at `max` characters. */
export function stripSecrets(url: string, max = 3000): string {
  const query = url.indexOf("?");
  if (query < 0) return cut(url, max);
  const hash = url.indexOf("#", query);
  const end = hash < 0 ? url.length : hash;
  const parts = url.slice(query + 1, end).split("&");
  const kept = parts.map((part) => {
    const equals = part.indexOf("=");
    const rawName = equals < 0 ? part : part.slice(0, equals);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, " "));
    } catch {
      // A malformed escape: judge the name as written.
    }
    return SECRET_NAME.test(name) && equals >= 0 ? `${rawName}=${REDACTED}` : part;
  });
  // A fragment never reaches the server; drop it if a client sent one anyway.
  return cut(`${url.slice(0, query)}?${kept.join("&")}`, max);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

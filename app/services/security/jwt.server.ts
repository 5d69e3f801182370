import { createHmac, timingSafeEqual } from "node:crypto";

// Compact HS256 JWTs, as PocketBase signs its tokens (tools/security/jwt.go): the header is fixed
// (no "alg": "none", no other algorithm is ever accepted), the payload is JSON. Each kind of token
// signs with a key of its own, derived from the app's secret with a label, so one kind can never
// stand in for another whatever its claims say. Verifying never throws.

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");
const HEADER = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
/** Longer than any token we sign: refused before any work. */
const MAX_TOKEN_LENGTH = 4096;

function signature(input: string, secret: string, label: string): Buffer {
  const key = createHmac("sha256", secret).update(label).digest();
  return createHmac("sha256", key).update(input).digest();
}

/** A token carrying `payload`, signed with the key `label` derives from `secret`. */
export function signJwt(payload: Record<string, unknown>, secret: string, label: string): string {
  const unsigned = `${HEADER}.${base64url(JSON.stringify(payload))}`;
  return `${unsigned}.${signature(unsigned, secret, label).toString("base64url")}`;
}

/** The payload of a token signed with that key (an object), or null for anything else. Expiry is the caller's. */
export function verifyJwt(token: string, secret: string, label: string): Record<string, unknown> | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [header, payload, sent] = parts as [string, string, string];
  if (header !== HEADER) return null;
  const expected = signature(`${header}.${payload}`, secret, label);
  const given = Buffer.from(sent, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

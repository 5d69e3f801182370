// Reading a request body with a bound: the bytes are counted as they arrive and reading stops past
// the limit, so a huge body costs at most `maxBytes` of memory. For the API endpoints that take a
// small JSON object or form (sign-in, subscriptions, redirects); uploads have their own streamed limits.

/** The body as text (UTF-8), read up to `maxBytes`: "too-large" past it, null when it cannot be read. */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string | "too-large" | null> {
  const bytes = await readBoundedBytes(request, maxBytes);
  if (bytes === null || bytes === "too-large") return bytes;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

async function readBoundedBytes(request: Request, maxBytes: number): Promise<Buffer | "too-large" | null> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) return "too-large";
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > maxBytes) return "too-large";
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } catch {
    return null;
  }
}

/** What a small form or JSON object endpoint reads: at most 64 KB. */
export const SMALL_BODY_BYTES = 64 * 1024;

/**
 * A JSON object (an empty body is `{}`) or a form (urlencoded or multipart, its text fields), read
 * up to `maxBytes`: "too-large" past it, null when it is not one of those.
 */
export async function readFieldsBody(request: Request, maxBytes = SMALL_BODY_BYTES): Promise<Record<string, unknown> | "too-large" | null> {
  const contentType = request.headers.get("content-type") ?? "";
  const type = contentType.toLowerCase();
  const bytes = await readBoundedBytes(request, maxBytes);
  if (bytes === null || bytes === "too-large") return bytes;
  try {
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      const form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
      return Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    }
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (text.trim() === "") return {};
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

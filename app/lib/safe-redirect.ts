/** A same-site path to go to after a form, or the fallback: never another origin. */
export function safeRedirect(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/")) return fallback;
  if (value.startsWith("//") || value.startsWith("/\\") || [...value].some((char) => char.charCodeAt(0) < 0x20)) return fallback;
  try {
    const url = new URL(value, "http://forja.invalid");
    if (url.origin !== "http://forja.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

// Every public form carries a field that people never see or fill; bots that fill every input do.
// The name looks like a real field so naive bots take the bait.
export const HONEYPOT_FIELD = "sitio_web";

export function isHoneypotFilled(formData: FormData): boolean {
  const value = formData.get(HONEYPOT_FIELD);
  return typeof value === "string" && value.trim() !== "";
}

import { z } from "~/lib/zod";

// Form fields that several features ask for with the same rules and the same Spanish messages.
// Browser-safe: the forms validate with them before sending, the server again on arrival.

/** A person's email: trimmed, lowercased, at most 254 characters. */
export const emailField = z
  .string({ error: "Escriba su correo electrónico." })
  .trim()
  .toLowerCase()
  .max(254, "El correo es demasiado largo.")
  .pipe(z.email({ error: "Escriba un correo válido, por ejemplo nombre@empresa.com." }));

export const MEXICAN_PHONE_MESSAGE = "Escriba un número de 10 dígitos; puede empezar con +52.";

/** Ten digits, optionally after +52 or 52; spaces, dots, dashes and parentheses are ignored. */
export function isMexicanPhone(value: string): boolean {
  return /^(\+?52)?\d{10}$/.test(value.replace(/[\s().-]/g, ""));
}

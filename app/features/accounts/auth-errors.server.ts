import { invalid, type Failure } from "~/lib/result";

// better-auth answers refusals with error codes; people read them in Spanish, on the field they are
// about when there is one. All are "invalid" (400), as the screens always answered them.

const ERROR_MESSAGES: Record<string, { message: string; field?: string }> = {
  INVALID_EMAIL_OR_PASSWORD: { message: "El correo o la contraseña no son correctos." },
  USER_ALREADY_EXISTS: { message: "Ya existe una cuenta con este correo. Inicie sesión o recupere su contraseña.", field: "email" },
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: { message: "Ya existe una cuenta con este correo. Inicie sesión o recupere su contraseña.", field: "email" },
  PASSWORD_TOO_SHORT: { message: "La contraseña debe tener al menos 8 caracteres.", field: "password" },
  PASSWORD_TOO_LONG: { message: "La contraseña no puede tener más de 128 caracteres.", field: "password" },
  INVALID_PASSWORD: { message: "La contraseña actual no es correcta.", field: "currentPassword" },
  INVALID_TOKEN: { message: "El enlace no es válido o ya venció. Solicite uno nuevo." },
  TOKEN_EXPIRED: { message: "El enlace ya venció. Solicite uno nuevo." },
  BANNED_USER: { message: "Esta cuenta está bloqueada. Escríbanos si cree que es un error." },
  EMAIL_ALREADY_VERIFIED: { message: "Su correo ya está confirmado." },
};

export function authErrorCode(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const body = (error as { body?: { code?: string } }).body;
  return body?.code;
}

/** A better-auth refusal as a Failure; anything that is not a refusal (a bug, the database down) is rethrown. */
export function authFailure(error: unknown): Failure {
  const code = authErrorCode(error);
  const known = code ? ERROR_MESSAGES[code] : undefined;
  if (known) return known.field ? invalid({ fieldErrors: { [known.field]: [known.message] } }) : invalid(known.message);
  if (code === undefined && !(error && typeof error === "object" && "status" in error)) throw error;
  return invalid("No pudimos completar la operación. Inténtelo de nuevo en un momento.");
}

export function invalidTokenFailure(): Failure {
  return authFailure({ body: { code: "INVALID_TOKEN" } });
}

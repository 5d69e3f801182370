import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { COMMON_PASSWORDS, isCommonPassword } from "./common-passwords";
import { ChangePasswordSchema, ForgotPasswordSchema, LoginSchema, RegisterSchema, ResetPasswordSchema } from "./forms";

// The form schemas the browser and the server share. Each row: the input, then either the parsed
// output it must give or the field and Spanish message it must fail with.

type Row = { label: string; input: Record<string, unknown>; error?: { path: string; message: string | RegExp } };

function issuesOf(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error!.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

function expectRow(schema: Parameters<typeof issuesOf>[0], row: Row) {
  const issues = issuesOf(schema, row.input);
  if (!row.error) {
    expect(issues, row.label).toEqual([]);
    return;
  }
  const match = issues.find((issue) => issue.path === row.error!.path);
  expect(match, `${row.label}: expected an error on ${row.error.path}, got ${JSON.stringify(issues)}`).toBeDefined();
  if (typeof row.error.message === "string") expect(match!.message).toBe(row.error.message);
  else expect(match!.message).toMatch(row.error.message);
}

const COMMON = "Esa contraseña es de las más usadas y fáciles de adivinar. Elija otra.";
const TOO_SHORT = "La contraseña debe tener al menos 8 caracteres.";
const TOO_LONG = "La contraseña no puede tener más de 128 caracteres.";
const MISMATCH = "Las contraseñas no coinciden.";
const PHONE = "Escriba un teléfono de 10 dígitos; puede empezar con +52.";
const GOOD = "Torno-CNC-7 azul";

describe("LoginSchema", () => {
  const base = { email: "cliente@empresa.com", password: "cualquiera" };
  const rows: Row[] = [
    { label: "valid", input: base },
    { label: "valid with redirectTo", input: { ...base, redirectTo: "/quotes" } },
    { label: "missing email", input: { password: "x" }, error: { path: "email", message: "Escriba su correo electrónico." } },
    { label: "bad email", input: { ...base, email: "no-es-correo" }, error: { path: "email", message: "Escriba un correo válido, por ejemplo nombre@empresa.com." } },
    { label: "too long email", input: { ...base, email: `${"a".repeat(250)}@x.com` }, error: { path: "email", message: "El correo es demasiado largo." } },
    { label: "missing password", input: { email: base.email }, error: { path: "password", message: "Escriba su contraseña." } },
    { label: "empty password", input: { ...base, password: "" }, error: { path: "password", message: "Escriba su contraseña." } },
    // Sign-in does not judge the password's strength: old accounts may have short ones.
    { label: "short password is fine for sign-in", input: { ...base, password: "abc" } },
    { label: "common password is fine for sign-in", input: { ...base, password: "12345678" } },
  ];
  it.each(rows)("$label", (row) => expectRow(LoginSchema, row));

  it("trims and lower-cases the email", () => {
    expect(LoginSchema.parse({ ...base, email: "  Cliente@EMPRESA.com " }).email).toBe("cliente@empresa.com");
  });
});

describe("RegisterSchema", () => {
  const base = { name: "Ana López", email: "ana@empresa.com", password: GOOD, passwordConfirm: GOOD, privacy: "on" };
  const rows: Row[] = [
    { label: "valid minimal", input: base },
    { label: "valid with company and phone", input: { ...base, company: "Taller Ana", phone: "5512345678" } },
    { label: "phone with +52", input: { ...base, phone: "+52 55 1234 5678" } },
    { label: "phone with 52 and dashes", input: { ...base, phone: "52-55-1234-5678" } },
    { label: "phone with spaces", input: { ...base, phone: "55 1234 5678" } },
    { label: "phone with 9 digits", input: { ...base, phone: "551234567" }, error: { path: "phone", message: PHONE } },
    { label: "phone with 11 digits", input: { ...base, phone: "55123456789" }, error: { path: "phone", message: PHONE } },
    { label: "phone with +1", input: { ...base, phone: "+1 5512345678" }, error: { path: "phone", message: PHONE } },
    { label: "phone with +52 and 9 digits", input: { ...base, phone: "+52551234567" }, error: { path: "phone", message: PHONE } },
    { label: "phone with letters", input: { ...base, phone: "55-ABCD-5678" }, error: { path: "phone", message: PHONE } },
    { label: "missing name", input: { ...base, name: undefined }, error: { path: "name", message: "Escriba su nombre." } },
    { label: "one-letter name", input: { ...base, name: " A " }, error: { path: "name", message: "Escriba su nombre completo." } },
    { label: "long name", input: { ...base, name: "N".repeat(121) }, error: { path: "name", message: "El nombre es demasiado largo." } },
    { label: "long company", input: { ...base, company: "C".repeat(161) }, error: { path: "company", message: "Máximo 160 caracteres." } },
    { label: "bad email", input: { ...base, email: "ana@" }, error: { path: "email", message: "Escriba un correo válido, por ejemplo nombre@empresa.com." } },
    { label: "password of 7", input: { ...base, password: "Ab3$xyz", passwordConfirm: "Ab3$xyz" }, error: { path: "password", message: TOO_SHORT } },
    { label: "password of exactly 8", input: { ...base, password: "Ab3$xyzQ", passwordConfirm: "Ab3$xyzQ" } },
    { label: "password of exactly 128", input: { ...base, password: "k".repeat(127) + "9", passwordConfirm: "k".repeat(127) + "9" } },
    { label: "password of 129", input: { ...base, password: "k".repeat(129), passwordConfirm: "k".repeat(129) }, error: { path: "password", message: TOO_LONG } },
    { label: "common password", input: { ...base, password: "password123", passwordConfirm: "password123" }, error: { path: "password", message: COMMON } },
    { label: "common password, upper case", input: { ...base, password: "PASSWORD123", passwordConfirm: "PASSWORD123" }, error: { path: "password", message: COMMON } },
    { label: "common password, mixed case", input: { ...base, password: "Contraseña123", passwordConfirm: "Contraseña123" }, error: { path: "password", message: COMMON } },
    { label: "common Spanish password", input: { ...base, password: "tequiero1", passwordConfirm: "tequiero1" }, error: { path: "password", message: COMMON } },
    { label: "confirmation mismatch", input: { ...base, passwordConfirm: `${GOOD}!` }, error: { path: "passwordConfirm", message: MISMATCH } },
    { label: "missing confirmation", input: { ...base, passwordConfirm: undefined }, error: { path: "passwordConfirm", message: "Repita la contraseña." } },
    { label: "privacy missing", input: { ...base, privacy: undefined }, error: { path: "privacy", message: "Para crear su cuenta debe aceptar el aviso de privacidad." } },
    { label: "privacy not 'on'", input: { ...base, privacy: "off" }, error: { path: "privacy", message: "Para crear su cuenta debe aceptar el aviso de privacidad." } },
  ];
  it.each(rows)("$label", (row) => expectRow(RegisterSchema, row));

  it("parses a submitted form the way the route does (empty optional fields are absent)", () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({ ...base, email: " ANA@Empresa.com ", company: "", phone: "" })) form.set(key, value);
    const parsed = parseWithZod(form, { schema: RegisterSchema });
    expect(parsed.status).toBe("success");
    if (parsed.status !== "success") return;
    expect(parsed.value).toMatchObject({ name: "Ana López", email: "ana@empresa.com", password: GOOD, privacy: "on" });
    expect(parsed.value.company).toBeUndefined();
    expect(parsed.value.phone).toBeUndefined();
  });

  it("reports the missing consent checkbox on its field when the form omits it", () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({ ...base, privacy: undefined })) if (value !== undefined) form.set(key, value);
    const parsed = parseWithZod(form, { schema: RegisterSchema });
    expect(parsed.status).toBe("error");
    if (parsed.status !== "error") return;
    expect(parsed.error?.privacy).toEqual(["Para crear su cuenta debe aceptar el aviso de privacidad."]);
  });
});

describe("ResetPasswordSchema", () => {
  const base = { token: "abc123", password: GOOD, passwordConfirm: GOOD };
  const rows: Row[] = [
    { label: "valid", input: base },
    { label: "empty token", input: { ...base, token: "" }, error: { path: "token", message: "El enlace no es válido. Solicite uno nuevo." } },
    { label: "short password", input: { ...base, password: "corta", passwordConfirm: "corta" }, error: { path: "password", message: TOO_SHORT } },
    { label: "long password", input: { ...base, password: "z".repeat(129), passwordConfirm: "z".repeat(129) }, error: { path: "password", message: TOO_LONG } },
    { label: "common password (case-insensitive)", input: { ...base, password: "QwErTy123", passwordConfirm: "QwErTy123" }, error: { path: "password", message: COMMON } },
    { label: "mismatch", input: { ...base, passwordConfirm: "otra-cosa-9" }, error: { path: "passwordConfirm", message: MISMATCH } },
  ];
  it.each(rows)("$label", (row) => expectRow(ResetPasswordSchema, row));
});

describe("ChangePasswordSchema", () => {
  const base = { intent: "password", currentPassword: "vieja-clave-1", newPassword: GOOD, passwordConfirm: GOOD };
  const rows: Row[] = [
    { label: "valid", input: base },
    { label: "missing current", input: { ...base, currentPassword: "" }, error: { path: "currentPassword", message: "Escriba su contraseña actual." } },
    { label: "short new", input: { ...base, newPassword: "1234567", passwordConfirm: "1234567" }, error: { path: "newPassword", message: TOO_SHORT } },
    { label: "long new", input: { ...base, newPassword: "x".repeat(129), passwordConfirm: "x".repeat(129) }, error: { path: "newPassword", message: TOO_LONG } },
    { label: "common new (upper case)", input: { ...base, newPassword: "ILOVEYOU", passwordConfirm: "ILOVEYOU" }, error: { path: "newPassword", message: COMMON } },
    { label: "mismatch", input: { ...base, passwordConfirm: "no-igual-99" }, error: { path: "passwordConfirm", message: MISMATCH } },
    { label: "missing confirmation", input: { ...base, passwordConfirm: undefined }, error: { path: "passwordConfirm", message: "Repita la contraseña nueva." } },
    { label: "same as current", input: { ...base, currentPassword: GOOD }, error: { path: "newPassword", message: "La contraseña nueva debe ser distinta de la actual." } },
    { label: "wrong intent", input: { ...base, intent: "profile" }, error: { path: "intent", message: /.+/ } },
  ];
  it.each(rows)("$label", (row) => expectRow(ChangePasswordSchema, row));
});

describe("ForgotPasswordSchema", () => {
  it("accepts an email and rejects garbage in Spanish", () => {
    expect(issuesOf(ForgotPasswordSchema, { email: "x@y.mx" })).toEqual([]);
    expect(issuesOf(ForgotPasswordSchema, { email: "x" })).toEqual([{ path: "email", message: "Escriba un correo válido, por ejemplo nombre@empresa.com." }]);
  });
});

describe("isCommonPassword", () => {
  it.each(["12345678", "PASSWORD", "Contraseña", "  qwerty123  ", "Mexico2026", "FORJA123"])("rejects %j", (value) => {
    expect(isCommonPassword(value)).toBe(true);
  });
  it.each(["Torno-CNC-7 azul", "mexico2027x", "forja-no-es-123"])("accepts %j", (value) => {
    expect(isCommonPassword(value)).toBe(false);
  });
  it("keeps only lower-case entries, so the case-insensitive lookup can match each of them", () => {
    for (const entry of COMMON_PASSWORDS) expect(entry).toBe(entry.toLowerCase());
  });
  it("keeps only entries a new password could be (8 to 128 characters), or the check would be dead weight", () => {
    for (const entry of COMMON_PASSWORDS) expect([...entry].length, entry).toBeGreaterThanOrEqual(8);
  });
});

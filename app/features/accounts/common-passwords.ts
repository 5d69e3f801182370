// Passwords that appear at the top of every leaked-password list, in English and Spanish. Checked
// case-insensitively; the list ships to the browser so the form can warn before submitting.
export const COMMON_PASSWORDS = new Set([
  "12345678", "123456789", "1234567890", "12345678910", "11111111", "00000000", "88888888", "87654321", "11223344",
  "12341234", "123123123", "1q2w3e4r", "1qaz2wsx", "qwertyui", "qwerty123", "qwerty12", "qwertyuiop", "asdfghjk",
  "asdf1234", "zxcvbnm1", "password", "password1", "password12", "password123", "passw0rd", "p@ssw0rd", "iloveyou",
  "sunshine", "princess", "football", "baseball", "welcome1", "letmein1", "superman", "batman123", "trustno1",
  "abc12345", "abcd1234", "aa123456", "admin123", "administrador", "contraseña", "contrasena", "contraseña1",
  "contrasena1", "contraseña123", "contrasena123", "micontraseña", "teamo123", "tequiero", "tequiero1", "mexico123",
  "mexico2026", "mexico2025", "america1", "chivas123", "chivas10", "cruzazul", "pumas123", "guadalupe", "alejandro",
  "fernando", "monterrey", "queretaro", "forja123", "forja2026", "12qwaszx", "q1w2e3r4", "zaq12wsx", "changeme",
  "secret123", "default1", "usuario1", "usuario123", "hola1234", "holamundo", "mariposa", "estrella", "corazon1",
]);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.trim().toLowerCase());
}

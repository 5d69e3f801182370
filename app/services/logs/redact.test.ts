import { describe, expect, it } from "vitest";
import { REDACTED, stripSecrets } from "./redact";

describe("stripSecrets", () => {
  it("replaces the values of secret-carrying query parameters and keeps the rest as sent", () => {
    expect(stripSecrets("/recuperar/nueva?token=abc123&utm_source=correo")).toBe(`/recuperar/nueva?token=${REDACTED}&utm_source=correo`);
    expect(stripSecrets("/auth/google/callback?code=4%2F0Ab&state=xyz&scope=email")).toBe(`/auth/google/callback?code=${REDACTED}&state=${REDACTED}&scope=email`);
    expect(stripSecrets("/api/files/c/r/f.pdf?thumb=100x100&token=eyJhbGci")).toBe(`/api/files/c/r/f.pdf?thumb=100x100&token=${REDACTED}`);
    expect(stripSecrets("/login?password=Secreta-1&Password2=x&access_token=t&apiKey=k&otpId=o")).toBe(
      `/login?password=${REDACTED}&Password2=${REDACTED}&access_token=${REDACTED}&apiKey=${REDACTED}&otpId=${REDACTED}`,
    );
    // Names are judged decoded: an escaped name does not slip through.
    expect(stripSecrets("/x?%74oken=abc&pagina=2")).toBe(`/x?%74oken=${REDACTED}&pagina=2`);
  });

  it("leaves URLs without secrets alone, also absolute ones (a referer), and cuts long ones", () => {
    expect(stripSecrets("/catalogo?pagina=2&orden=precio")).toBe("/catalogo?pagina=2&orden=precio");
    expect(stripSecrets("/servicios")).toBe("/servicios");
    expect(stripSecrets("https://forja.mx/cuenta/confirmar?token=abc#fin")).toBe(`https://forja.mx/cuenta/confirmar?token=${REDACTED}`);
    expect(stripSecrets(`/${"a".repeat(50)}`, 10)).toBe(`/${"a".repeat(9)}...`);
    expect(stripSecrets("/x?%E0%A4%A=1&token=z")).toBe(`/x?%E0%A4%A=1&token=${REDACTED}`);
  });
});

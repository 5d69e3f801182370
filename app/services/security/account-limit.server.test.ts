import { describe, expect, it } from "vitest";
import { setupTestDatabase } from "../../../tests/support/test-database";
import { ACCOUNT_SIGN_IN_RULE, accountLockMessage, beginAccountAttempt, clearAccountAttempts, normalizeAccountEmail } from "./account-limit.server";

// The per-account sign-in counter on the real database (docs/decisions/0036); the clock is passed explicitly.

setupTestDatabase();

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
let counter = 0;
const freshEmail = () => `cuenta-${process.pid}-${++counter}@ejemplo.mx`;

describe("normalizeAccountEmail", () => {
  it("folds case, surrounding spaces and compatibility forms into one key", () => {
    expect(normalizeAccountEmail("  Ana@Ejemplo.MX ")).toBe("ana@ejemplo.mx");
    // Full-width letters and at sign (NFKC).
    expect(normalizeAccountEmail("\uFF21\uFF4E\uFF41\uFF20ejemplo.mx")).toBe("ana@ejemplo.mx");
  });
});

describe("beginAccountAttempt", () => {
  it("allows the limit, marks the last one before the lock, then refuses until the window ends", async () => {
    const email = freshEmail();
    const attempts = [];
    for (let i = 0; i < ACCOUNT_SIGN_IN_RULE.limit + 2; i += 1) attempts.push(await beginAccountAttempt(email, T0 + i * 1_000));
    expect(attempts.map((attempt) => attempt.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(attempts.filter((attempt) => attempt.allowed && attempt.lastBeforeLock)).toHaveLength(1);
    expect(attempts[4]).toEqual({ allowed: true, lastBeforeLock: true });
    expect(attempts[5]).toEqual({ allowed: false, retryAfterSeconds: 895 });
    // The same account however it is typed.
    expect((await beginAccountAttempt(` ${email.toUpperCase()}`, T0 + 10_000)).allowed).toBe(false);
    expect((await beginAccountAttempt(email, T0 + ACCOUNT_SIGN_IN_RULE.windowMs)).allowed).toBe(true);
  });

  it("starts over after a success or a reset clears the account", async () => {
    const email = freshEmail();
    for (let i = 0; i < ACCOUNT_SIGN_IN_RULE.limit; i += 1) await beginAccountAttempt(email, T0);
    expect((await beginAccountAttempt(email, T0)).allowed).toBe(false);
    await clearAccountAttempts(email.toUpperCase());
    expect(await beginAccountAttempt(email, T0)).toEqual({ allowed: true, lastBeforeLock: false });
  });
});

describe("accountLockMessage", () => {
  it("names the minutes left and the way out, in Spanish", () => {
    expect(accountLockMessage(900)).toBe("Demasiados intentos para esta cuenta. Intente de nuevo en 15 minutos o restablezca su contraseña.");
    expect(accountLockMessage(30)).toBe("Demasiados intentos para esta cuenta. Intente de nuevo en un minuto o restablezca su contraseña.");
  });
});

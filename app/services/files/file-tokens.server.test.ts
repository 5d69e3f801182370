import { describe, expect, it } from "vitest";
import { signRecordToken } from "~/services/records/tokens.server";
import { FILE_TOKEN_SECONDS, signFileToken, verifyFileToken } from "./file-tokens.server";
import { parseThumbSize } from "./thumbs.server";

// File tokens (docs/decisions/0016): what they say, how long they live, and that an auth token can
// never pass for one. Thumb sizes in PocketBase's syntax.

const SECRET = "secreto-de-prueba-para-archivos";
const NOW = new Date("2026-11-24T12:00:00Z");
const SESSION = { id: "usuario-1", collection: "users" as const, sessionId: "sesion-1", sessionExpiresAt: new Date("2026-12-01T00:00:00Z") };

describe("file tokens", () => {
  it("carry PocketBase's claims plus the session, for 180 seconds", () => {
    const claims = verifyFileToken(signFileToken(SESSION, { secret: SECRET, now: NOW }), { secret: SECRET, now: NOW });
    expect(claims).toEqual({ id: "usuario-1", type: "file", collectionId: "_pb_users_auth_", collection: "users", sid: "sesion-1", iat: NOW.getTime() / 1000, exp: NOW.getTime() / 1000 + FILE_TOKEN_SECONDS });
    const staff = verifyFileToken(signFileToken({ ...SESSION, collection: "_superusers" }, { secret: SECRET, now: NOW }), { secret: SECRET, now: NOW });
    expect(staff).toMatchObject({ collection: "_superusers", collectionId: "pbc_3142635823" });
  });

  it("expire, and never outlive their session", () => {
    const token = signFileToken(SESSION, { secret: SECRET, now: NOW });
    expect(verifyFileToken(token, { secret: SECRET, now: new Date(NOW.getTime() + 179_000) })).not.toBeNull();
    expect(verifyFileToken(token, { secret: SECRET, now: new Date(NOW.getTime() + 180_000) })).toBeNull();
    const ending = signFileToken({ ...SESSION, sessionExpiresAt: new Date(NOW.getTime() + 30_000) }, { secret: SECRET, now: NOW });
    expect(verifyFileToken(ending, { secret: SECRET, now: new Date(NOW.getTime() + 31_000) })).toBeNull();
  });

  it("are refused when forged, tampered with, of another key, or an auth token", () => {
    const token = signFileToken(SESSION, { secret: SECRET, now: NOW });
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), id: "otro" })).toString("base64url");
    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const auth = signRecordToken({ ...SESSION }, { secret: SECRET, now: NOW });
    for (const bad of [`${header}.${forged}.${signature}`, `${none}.${payload}.`, signFileToken(SESSION, { secret: "otra", now: NOW }), auth, "", "a.b.c", "x".repeat(5000), `${token}.`]) {
      expect(verifyFileToken(bad, { secret: SECRET, now: NOW }), bad.slice(0, 40)).toBeNull();
    }
  });
});

describe("parseThumbSize", () => {
  it("reads PocketBase's formats", () => {
    expect(parseThumbSize("100x100")).toEqual({ width: 100, height: 100, mode: "center" });
    expect(parseThumbSize("300x200t")).toEqual({ width: 300, height: 200, mode: "top" });
    expect(parseThumbSize("300x200b")).toEqual({ width: 300, height: 200, mode: "bottom" });
    expect(parseThumbSize("300x200f")).toEqual({ width: 300, height: 200, mode: "fit" });
    expect(parseThumbSize("0x300")).toEqual({ width: 0, height: 300, mode: "center" });
    expect(parseThumbSize("640x0")).toEqual({ width: 640, height: 0, mode: "center" });
  });

  it("refuses anything else", () => {
    for (const bad of ["", "0x0", "100", "100x", "x100", "100x100z", "-1x10", "99999x1", "1x99999", "100X100", " 100x100", "100x100\0"]) expect(parseThumbSize(bad), bad).toBeNull();
  });
});

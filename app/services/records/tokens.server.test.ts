import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AUTH_COLLECTIONS, authCollectionByNameOrId, authorizationToken, signRecordToken, verifyRecordToken } from "./tokens.server";

// The record API's JWTs on their own: what they carry, and that a changed byte, another key, another
// algorithm or the passing of `exp` each make them worthless. Sessions are checked elsewhere
// (app/routes/api/records-auth.server.test.ts).

const SECRET = "secreto-de-prueba-con-suficiente-longitud";
const NOW = new Date("2026-05-01T12:00:00Z");
const LATER = new Date("2026-07-01T12:00:00Z");
const sign = (collection: "users" | "_superusers" = "users", sessionExpiresAt = LATER) =>
  signRecordToken({ id: "user-1", collection, sessionId: "session-1", sessionExpiresAt }, { secret: SECRET, now: NOW });

const decode = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("signRecordToken / verifyRecordToken", () => {
  it("signs HS256 with PocketBase's claims plus the session, and verifies them", () => {
    const token = sign();
    const [header, payload] = token.split(".");
    expect(decode(header!)).toEqual({ alg: "HS256", typ: "JWT" });
    const nowSeconds = NOW.getTime() / 1000;
    expect(decode(payload!)).toEqual({ id: "user-1", type: "auth", collectionId: "_pb_users_auth_", refreshable: true, sid: "session-1", iat: nowSeconds, exp: nowSeconds + 7 * 86400 });
    expect(verifyRecordToken(token, { secret: SECRET, now: NOW })).toMatchObject({ id: "user-1", collection: "users", sid: "session-1", refreshable: true });
  });

  it("gives staff one day, and never outlives the session", () => {
    const nowSeconds = NOW.getTime() / 1000;
    expect(decode(sign("_superusers").split(".")[1]!)).toMatchObject({ collectionId: AUTH_COLLECTIONS._superusers.id, exp: nowSeconds + 86400 });
    const soon = new Date(NOW.getTime() + 3600_000);
    expect(decode(sign("users", soon).split(".")[1]!).exp).toBe(nowSeconds + 3600);
  });

  it("refuses an expired token", () => {
    const token = sign("_superusers");
    expect(verifyRecordToken(token, { secret: SECRET, now: new Date(NOW.getTime() + 86400_000 - 1000) })).not.toBeNull();
    expect(verifyRecordToken(token, { secret: SECRET, now: new Date(NOW.getTime() + 86400_000) })).toBeNull();
  });

  it("refuses a changed payload, a changed signature, another secret and another algorithm", () => {
    const token = sign();
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const other = encode({ ...decode(payload), id: "otro-usuario" });
    expect(verifyRecordToken(`${header}.${other}.${signature}`, { secret: SECRET, now: NOW })).toBeNull();
    const flipped = Buffer.from(signature, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(verifyRecordToken(`${header}.${payload}.${flipped.toString("base64url")}`, { secret: SECRET, now: NOW })).toBeNull();
    expect(verifyRecordToken(token, { secret: `${SECRET}-otro`, now: NOW })).toBeNull();
    expect(verifyRecordToken(`${encode({ alg: "none", typ: "JWT" })}.${payload}.`, { secret: SECRET, now: NOW })).toBeNull();
    // Signed with the app's secret itself (as better-auth signs), not the record API's derived key.
    const unsigned = `${header}.${payload}`;
    const raw = createHmac("sha256", SECRET).update(unsigned).digest("base64url");
    expect(verifyRecordToken(`${unsigned}.${raw}`, { secret: SECRET, now: NOW })).toBeNull();
  });

  it("refuses garbage without throwing", () => {
    for (const token of ["", "a", "a.b", "a.b.c", "....", `${sign()}.x`, "Bearer x"]) expect(verifyRecordToken(token, { secret: SECRET, now: NOW })).toBeNull();
  });
});

describe("authorizationToken", () => {
  it("takes the raw token, as the SDK sends it, or a Bearer one", () => {
    expect(authorizationToken("abc.def.ghi")).toBe("abc.def.ghi");
    expect(authorizationToken("Bearer abc.def.ghi")).toBe("abc.def.ghi");
    expect(authorizationToken("bearer abc.def.ghi")).toBe("abc.def.ghi");
    expect(authorizationToken(null)).toBe("");
  });
});

describe("authCollectionByNameOrId", () => {
  it("finds the auth collections by name or id", () => {
    expect(authCollectionByNameOrId("users")).toBe("users");
    expect(authCollectionByNameOrId("_pb_users_auth_")).toBe("users");
    expect(authCollectionByNameOrId("pbc_3142635823")).toBe("_superusers");
    expect(authCollectionByNameOrId("productos")).toBeNull();
  });
});

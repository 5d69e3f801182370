import fs from "node:fs";
import { afterAll, describe, expect, it, vi } from "vitest";

// The signed one-time form token: timing rules through the `now` parameter (no sleeping) and
// tampering. getEnv() caches the environment on first read, so DATA_DIR (where the generated
// signing secret is kept) is set before any app module loads.
const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("form-token"));

import { FILL_CLAIM_SLACK_MS, issueFormToken, MAX_AGE_MS, MIN_FILL_MS, readFillMs, readFormNonce, verifyFormToken } from "./form-token.server";

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const shown = Date.UTC(2026, 2, 10, 16, 0, 0);

describe("form tokens", () => {
  it("uses the documented windows: at least 3 s to fill, valid for 24 h", () => {
    expect(MIN_FILL_MS).toBe(3_000);
    expect(MAX_AGE_MS).toBe(24 * 60 * 60 * 1000);
  });

  it("is valid from 3 s after the form was shown until 24 h later", () => {
    const token = issueFormToken("cotiza", shown);
    expect(verifyFormToken(token, "cotiza", shown + 3_000)).toEqual({ ok: true });
    expect(verifyFormToken(token, "cotiza", shown + 5 * 60_000)).toEqual({ ok: true });
    expect(verifyFormToken(token, "cotiza", shown + MAX_AGE_MS)).toEqual({ ok: true });
  });

  it("is too fast before 3 s (a person cannot fill the form that quickly)", () => {
    const token = issueFormToken("contacto", shown);
    expect(verifyFormToken(token, "contacto", shown)).toEqual({ ok: false, reason: "too-fast" });
    expect(verifyFormToken(token, "contacto", shown + 2_999)).toEqual({ ok: false, reason: "too-fast" });
    // A clock that says the form was shown in the future is no better.
    expect(verifyFormToken(token, "contacto", shown - 60_000)).toEqual({ ok: false, reason: "too-fast" });
  });

  it("is expired after 24 h", () => {
    const token = issueFormToken("cotiza", shown);
    expect(verifyFormToken(token, "cotiza", shown + MAX_AGE_MS + 1)).toEqual({ ok: false, reason: "expired" });
    expect(verifyFormToken(token, "cotiza", shown + 30 * MAX_AGE_MS)).toEqual({ ok: false, reason: "expired" });
  });

  it("is different every time, even for the same form and moment", () => {
    const tokens = new Set(Array.from({ length: 50 }, () => issueFormToken("cotiza", shown)));
    expect(tokens.size).toBe(50);
  });

  it("belongs to one form: a contact token is invalid for the quote form and vice versa", () => {
    const later = shown + 10_000;
    expect(verifyFormToken(issueFormToken("contacto", shown), "cotiza", later)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyFormToken(issueFormToken("cotiza", shown), "contacto", later)).toEqual({ ok: false, reason: "invalid" });
  });

  it("is invalid when any part was changed", () => {
    const later = shown + 10_000;
    const token = issueFormToken("cotiza", shown);
    const [form, time, nonce, signature] = token.split(".") as [string, string, string, string];
    const flip = (value: string) => (value[0] === "A" ? "B" : "A") + value.slice(1);

    // The kind renamed while keeping the signature: the signature no longer matches.
    expect(verifyFormToken(["contacto", time, nonce, signature].join("."), "contacto", later)).toEqual({ ok: false, reason: "invalid" });
    // An older issue time (to dodge the fill-time check) or a newer one (to dodge expiry).
    expect(verifyFormToken([form, (shown - 60_000).toString(36), nonce, signature].join("."), "cotiza", later)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyFormToken([form, (later + MAX_AGE_MS).toString(36), nonce, signature].join("."), "cotiza", later + MAX_AGE_MS + 5_000)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyFormToken([form, time, flip(nonce), signature].join("."), "cotiza", later)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyFormToken([form, time, nonce, flip(signature)].join("."), "cotiza", later)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyFormToken([form, time, nonce, signature.slice(0, -1)].join("."), "cotiza", later)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyFormToken([form, time, nonce, `${signature}A`].join("."), "cotiza", later)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyFormToken([form, time, nonce, ""].join("."), "cotiza", later)).toEqual({ ok: false, reason: "invalid" });
    // The untouched token still verifies.
    expect(verifyFormToken(token, "cotiza", later)).toEqual({ ok: true });
  });

  it("is invalid when it is not a token at all", () => {
    const later = shown + 10_000;
    for (const junk of ["", "cotiza", "cotiza.abc", "cotiza.abc.def", "cotiza.a.b.c.d", "....", "x".repeat(500)]) {
      expect(verifyFormToken(junk, "cotiza", later)).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("is invalid under another secret (a token from another installation)", () => {
    const token = issueFormToken("cotiza", shown);
    const [form, time, nonce] = token.split(".");
    const foreign = `${form}.${time}.${nonce}.${Buffer.alloc(32, 7).toString("base64url")}`;
    expect(verifyFormToken(foreign, "cotiza", shown + 10_000)).toEqual({ ok: false, reason: "invalid" });
  });

  it("on a cached page, the browser's fill time decides, bounded by the token's age", () => {
    const token = issueFormToken("cotiza", shown);
    const hour = 60 * 60 * 1000;
    // Cached an hour ago, the form open 3 s or more: a person; less: a bot, however old the token.
    expect(verifyFormToken(token, "cotiza", shown + hour, 3_000)).toEqual({ ok: true });
    expect(verifyFormToken(token, "cotiza", shown + hour, 45_000)).toEqual({ ok: true });
    expect(verifyFormToken(token, "cotiza", shown + hour, 2_999)).toEqual({ ok: false, reason: "too-fast" });
    expect(verifyFormToken(token, "cotiza", shown + hour, 0)).toEqual({ ok: false, reason: "too-fast" });
    // Rendered a second ago and open 4 s: within the slack for a clock set while the form was open.
    expect(verifyFormToken(token, "cotiza", shown + 1_000, 4_000)).toEqual({ ok: true });
    // Open longer than the page has existed (plus the slack): made up.
    expect(verifyFormToken(token, "cotiza", shown + 10_000, 10_000 + FILL_CLAIM_SLACK_MS)).toEqual({ ok: true });
    expect(verifyFormToken(token, "cotiza", shown + 10_000, 10_001 + FILL_CLAIM_SLACK_MS)).toEqual({ ok: false, reason: "too-fast" });
    // The fill time never rescues a bad or expired token.
    expect(verifyFormToken(token, "cotiza", shown + MAX_AGE_MS + 1, 60_000)).toEqual({ ok: false, reason: "expired" });
    expect(verifyFormToken(`${token}x`, "cotiza", shown + hour, 60_000)).toEqual({ ok: false, reason: "invalid" });
  });

  it("reads the fill time and the nonce only when well formed", () => {
    expect(readFillMs("4200")).toBe(4_200);
    expect(readFillMs("0")).toBe(0);
    for (const junk of [null, "", "-5", "3.5", "1e9", " 4000", "4000ms", "9".repeat(13)]) expect(readFillMs(junk), String(junk)).toBeUndefined();
    expect(readFillMs(new File(["4000"], "fill.txt"))).toBeUndefined();

    const uuid = "3f2b8c1e-9a4d-4c7e-8f10-2a6b5d9e0c71";
    expect(readFormNonce(uuid)).toBe(uuid);
    expect(readFormNonce("0123456789abcdef0123456789abcdef")).toBe("0123456789abcdef0123456789abcdef");
    for (const junk of [null, "", "short", "a".repeat(65), `${uuid}:n:x`, "<script>alert(1)</script>", "ñandú-ñandú-ñandú-ñandú"]) {
      expect(readFormNonce(junk), String(junk)).toBeNull();
    }
    expect(readFormNonce(new File([uuid], "nonce.txt"))).toBeNull();
  });
});

import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The rest of the record API's auth (docs/decisions/0018) through the official `pocketbase` SDK,
// unchanged, against the real production server over HTTP: the `users` and `_superusers` records
// for guest, customer, other customer and staff; password reset and email verification with the
// token read from the email a real SMTP server received; and OAuth2 with a real OpenID Connect
// provider on loopback — the code flow (authWithOAuth2Code) and the SDK's realtime popup flow
// (authWithOAuth2 through /api/oauth2-redirect). Node has no EventSource: the `eventsource` package.

await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("records-auth-extra-sdk"));

import { registerCustomer } from "~/features/accounts/registration.server";
import { upsertStaffAccount } from "~/features/accounts/staff-account.server";
import { exemptStaffFromMfa, requestMeta, tokenFromMail } from "../../../tests/support/auth-requests";
import { encodeOidcIdentity, OIDC_IDENTITY_COOKIE, startOidcTestServer, type OidcIdentity, type OidcTestServer } from "../../../tests/support/oidc-test-server";
import { startSmtpTestServer, type ReceivedMail, type SmtpTestServer } from "../../../tests/support/smtp-test-server";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { sdkClient, sdkFailure } from "../../../tests/support/sdk-client";

(globalThis as { EventSource?: unknown }).EventSource = EventSource;

const REQUEST_TIMEOUT_MS = 15_000;
const MAIL_TIMEOUT_MS = 20_000;
const A = { name: "Andrea Cliente", email: `andrea-extra-${process.pid}@ejemplo.mx`, password: "Fresadora-CNC-42" };
const B = { name: "Bruno Cliente", email: `bruno-extra-${process.pid}@ejemplo.mx`, password: "Torno-Paralelo-77" };
const STAFF = { name: "Personal Extra", email: `personal-extra-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const RESET_SUBJECT = "Restablezca su contraseña de Forja";
const CONFIRM_SUBJECT = "Confirme su correo en Forja";
const RECORD_KEYS = ["avatar", "collectionId", "collectionName", "created", "email", "emailVisibility", "id", "name", "updated", "verified"];

let server: TestServer | undefined;
let smtp: SmtpTestServer | undefined;
let oidc: OidcTestServer | undefined;
const ids = { a: "", b: "", staff: "" };

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  oidc = await startOidcTestServer();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, OIDC_ISSUER: oidc.issuer, OIDC_CLIENT_ID: oidc.clientId, OIDC_CLIENT_SECRET: oidc.clientSecret, OIDC_NAME: "Forja ID de pruebas" },
    prepare: async () => {
      for (const customer of [A, B]) {
        const registered = await registerCustomer(requestMeta("/registro", { method: "POST" }), customer);
        if (!registered.ok) throw new Error(`${customer.email} not registered`);
      }
      await upsertStaffAccount(STAFF);
      // auth-with-password in one step; the admins' second step is records-auth-otp.sdk.test.ts (0061).
      await exemptStaffFromMfa(STAFF.email);
    },
  });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  await oidc?.stop();
  await smtp?.stop();
}, 60_000);

let ipCounter = 0;

/**
 * A client of its own address (the server trusts X-Forwarded-For from loopback), so per-IP limits
 * do not mix between tests; `loopback` keeps the real one (an EventSource cannot send headers).
 */
function client(options: { loopback?: boolean } = {}): PocketBase {
  const forwarded: Record<string, string> = options.loopback ? {} : { "x-forwarded-for": `198.51.100.${(ipCounter += 1)}` };
  return sdkClient(server!.url, () => forwarded);
}

async function signedIn(collection: "users" | "_superusers", account: { email: string; password: string }): Promise<PocketBase> {
  const pb = client();
  const auth = await pb.collection(collection).authWithPassword(account.email, account.password);
  if (account.email === A.email) ids.a = auth.record.id;
  if (account.email === B.email) ids.b = auth.record.id;
  if (account.email === STAFF.email) ids.staff = auth.record.id;
  return pb;
}

const failure = sdkFailure;

/** Mail to `to` with `subject`, waiting until there are at least `count` of them; newest last. */
const mailsTo = (to: string, subject: string, count: number) => smtp!.mailsTo(to, subject, count, MAIL_TIMEOUT_MS);

const tokenOf = (mail: ReceivedMail, path: string) => tokenFromMail({ html: mail.parsed.html ?? "", text: mail.parsed.text ?? "" }, path);

describe("users and _superusers records through the SDK", { timeout: 60_000 }, () => {
  it("a customer sees only their own `users` record, with PocketBase's auth record fields", async () => {
    const a = await signedIn("users", A);
    await signedIn("users", B);
    const list = await a.collection("users").getList(1, 50);
    expect(list.totalItems).toBe(1);
    expect(list.items.map((item) => item.id)).toEqual([ids.a]);
    const own = await a.collection("users").getOne(ids.a);
    expect(Object.keys(own).sort()).toEqual(RECORD_KEYS);
    expect(own).toMatchObject({ collectionId: "_pb_users_auth_", collectionName: "users", email: A.email, name: A.name, verified: false, emailVisibility: false, avatar: "" });
    expect((await failure(a.collection("users").getOne(ids.b))).status).toBe(404);
    // The caller's filter only narrows the rule.
    expect((await a.collection("users").getList(1, 50, { filter: a.filter("email = {:email}", { email: B.email }) })).totalItems).toBe(0);
  });

  it("staff see every customer but no staff account among `users`; a guest sees none", async () => {
    const staff = await signedIn("_superusers", STAFF);
    const customers = await staff.collection("users").getFullList({ filter: 'email ~ "-extra-"' });
    expect(customers.map((item) => item.email).sort()).toEqual([A.email, B.email].sort());
    expect((await staff.collection("users").getOne(ids.b)).email).toBe(B.email);
    expect((await failure(staff.collection("users").getOne(ids.staff))).status).toBe(404);

    const guest = client();
    expect((await guest.collection("users").getList(1, 10)).totalItems).toBe(0);
    expect((await failure(guest.collection("users").getOne(ids.a))).status).toBe(404);
  });

  it("_superusers: PocketBase's 403 for a guest and a customer; staff see their own record", async () => {
    const staff = await signedIn("_superusers", STAFF);
    const own = await staff.collection("_superusers").getOne(ids.staff);
    expect(own).toMatchObject({ collectionId: "pbc_3142635823", collectionName: "_superusers", email: STAFF.email, name: STAFF.name });
    expect((await staff.collection("_superusers").getFullList()).map((item) => item.id)).toEqual([ids.staff]);

    const customer = await signedIn("users", A);
    for (const pb of [client(), customer]) {
      const listed = await failure(pb.collection("_superusers").getList(1, 10));
      expect(listed.status).toBe(403);
      expect(listed.response).toEqual({ status: 403, message: "Only superusers can perform this action.", data: {} });
      expect((await failure(pb.collection("_superusers").getOne(ids.staff))).status).toBe(403);
    }
  });
});

describe("password reset through the SDK, with the token from the email", { timeout: 90_000 }, () => {
  it("resets a customer's password: old tokens stop working, the new password signs in, the token is single-use", async () => {
    const before = await signedIn("users", A);
    expect(await client().collection("users").requestPasswordReset(A.email)).toBe(true);
    // Unknown addresses and the other kind of account get the same 204.
    expect(await client().collection("users").requestPasswordReset(`nadie-${process.pid}@ejemplo.mx`)).toBe(true);
    expect(await client().collection("users").requestPasswordReset(STAFF.email)).toBe(true);
    const [mail] = await mailsTo(A.email, RESET_SUBJECT, 1);
    const token = tokenOf(mail!, "/recuperar/nueva");

    // A customer's token is not a staff token.
    const wrongCollection = await failure(client().collection("_superusers").confirmPasswordReset(token, "Prensa-Hidraulica-9", "Prensa-Hidraulica-9"));
    expect(wrongCollection.status).toBe(400);
    expect(wrongCollection.response.data).toEqual({ token: { code: "validation_token_collection_mismatch", message: "The provided token is for different auth collection." } });
    const mismatch = await failure(client().collection("users").confirmPasswordReset(token, "Prensa-Hidraulica-9", "Prensa-Hidraulica-8"));
    expect(mismatch.response).toEqual({ status: 400, message: "An error occurred while validating the submitted data.", data: { passwordConfirm: { code: "validation_values_mismatch", message: "Values don't match." } } });

    expect(await client().collection("users").confirmPasswordReset(token, "Prensa-Hidraulica-9", "Prensa-Hidraulica-9")).toBe(true);
    // The reset ended every session: the token signed in before is refused, and reads as a guest's.
    expect(before.authStore.isValid).toBe(true);
    expect((await failure(before.collection("users").authRefresh())).status).toBe(401);
    expect((await before.collection("users").getList(1, 10)).totalItems).toBe(0);
    expect((await failure(client().collection("users").authWithPassword(A.email, A.password))).status).toBe(400);
    A.password = "Prensa-Hidraulica-9";
    expect((await (await signedIn("users", A)).collection("users").getOne(ids.a)).email).toBe(A.email);

    const reused = await failure(client().collection("users").confirmPasswordReset(token, "Prensa-Hidraulica-10", "Prensa-Hidraulica-10"));
    expect(reused.response.data).toEqual({ token: { code: "validation_invalid_token", message: "Invalid or expired token." } });
    // Nothing was sent for the staff email asked at `users`.
    expect(smtp!.received.filter((received) => received.envelopeTo.includes(STAFF.email))).toEqual([]);
  });

  it("resets a staff password at _superusers", async () => {
    const before = await signedIn("_superusers", STAFF);
    expect(await client().collection("_superusers").requestPasswordReset(STAFF.email)).toBe(true);
    const [mail] = await mailsTo(STAFF.email, RESET_SUBJECT, 1);
    const token = tokenOf(mail!, "/recuperar/nueva");
    expect((await failure(client().collection("users").confirmPasswordReset(token, "Panel-Nuevo-Seguro-2", "Panel-Nuevo-Seguro-2"))).response.data).toMatchObject({
      token: { code: "validation_token_collection_mismatch" },
    });
    expect(await client().collection("_superusers").confirmPasswordReset(token, "Panel-Nuevo-Seguro-2", "Panel-Nuevo-Seguro-2")).toBe(true);
    expect((await failure(before.collection("_superusers").authRefresh())).status).toBe(401);
    STAFF.password = "Panel-Nuevo-Seguro-2";
    expect((await signedIn("_superusers", STAFF)).authStore.isSuperuser).toBe(true);
  });

  it("answers PocketBase's validation errors and its 429 over the limit of /recuperar", async () => {
    const pb = client();
    const blank = await failure(pb.collection("users").requestPasswordReset(""));
    expect(blank.response).toEqual({ status: 400, message: "An error occurred while validating the submitted data.", data: { email: { code: "validation_required", message: "Cannot be blank." } } });
    const notAnEmail = await failure(pb.collection("users").requestPasswordReset("no es correo"));
    expect(notAnEmail.response.data).toEqual({ email: { code: "validation_is_email", message: "Must be a valid email address." } });
    for (let attempt = 3; attempt <= 5; attempt += 1) await pb.collection("users").requestPasswordReset(`nadie-${attempt}-${process.pid}@ejemplo.mx`);
    const limited = await failure(pb.collection("users").requestPasswordReset(`nadie-6-${process.pid}@ejemplo.mx`));
    expect(limited.status).toBe(429);
    expect(limited.response).toEqual({ status: 429, message: "Too Many Requests.", data: {} });
  });
});

describe("email verification through the SDK", { timeout: 90_000 }, () => {
  it("confirms a customer's email with the token of a new confirmation email", async () => {
    // B got one confirmation email on registering; asking sends another.
    const [registration] = await mailsTo(B.email, CONFIRM_SUBJECT, 1);
    expect(registration).toBeDefined();
    const already = smtp!.received.filter((mail) => mail.envelopeTo.includes(B.email) && mail.parsed.subject === CONFIRM_SUBJECT).length;
    expect(await client().collection("users").requestVerification(B.email)).toBe(true);
    const mails = await mailsTo(B.email, CONFIRM_SUBJECT, already + 1);
    const token = tokenOf(mails.at(-1)!, "/cuenta/confirmar");

    const bad = await failure(client().collection("users").confirmVerification(`${token}x`));
    expect(bad.response).toEqual({ status: 400, message: "An error occurred while validating the submitted data.", data: { token: { code: "validation_invalid_token", message: "Invalid or expired token." } } });
    expect(await client().collection("users").confirmVerification(token)).toBe(true);
    const b = await signedIn("users", B);
    expect(b.authStore.record?.verified).toBe(true);
    expect((await b.collection("users").getOne(ids.b)).verified).toBe(true);
    // Confirming twice is still a 204, as PocketBase's.
    expect(await client().collection("users").confirmVerification(token)).toBe(true);
  });

  it("staff are verified by default: PocketBase's 400 at _superusers", async () => {
    const refused = await failure(client().collection("_superusers").requestVerification(STAFF.email));
    expect(refused.response).toEqual({ status: 400, message: "All superusers are verified by default.", data: {} });
    expect((await failure(client().collection("_superusers").confirmVerification("x.y.z"))).status).toBe(400);
  });
});

describe("OAuth2 with the OpenID Connect test provider", { timeout: 90_000 }, () => {
  /** What a browser does with an authURL: the provider signs `identity` in and redirects with a code. */
  async function authorize(url: string, identity: OidcIdentity): Promise<URL> {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { cookie: `${OIDC_IDENTITY_COOKIE}=${encodeOidcIdentity(identity)}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(response.status).toBe(302);
    return new URL(response.headers.get("location")!);
  }

  it("auth-methods lists the provider with PocketBase's fields and a PKCE authURL", async () => {
    const methods = await client().collection("users").listAuthMethods();
    expect(methods.oauth2.enabled).toBe(true);
    const [provider] = methods.oauth2.providers;
    expect(provider).toMatchObject({ name: "oidc", displayName: "Forja ID de pruebas", codeChallengeMethod: "S256" });
    const { createHash } = await import("node:crypto");
    expect(provider!.codeChallenge).toBe(createHash("sha256").update(provider!.codeVerifier).digest("base64url"));
    expect(provider!.authURL.endsWith("&redirect_uri=")).toBe(true);
    const url = new URL(provider!.authURL);
    expect(`${url.origin}${url.pathname}`).toBe(`${oidc!.issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ client_id: oidc!.clientId, state: provider!.state, code_challenge: provider!.codeChallenge, code_challenge_method: "S256", response_type: "code" });
    expect((await client().collection("_superusers").listAuthMethods()).oauth2).toEqual({ enabled: false, providers: [] });
  });

  it("authWithOAuth2Code creates a verified customer, then signs the same one in", async () => {
    const identity = { email: `proveedor-extra-${process.pid}@oidc.example`, name: "Paola Proveedor" };
    const redirectURL = `${server!.url}/mi-app/oauth`;
    const signIn = async () => {
      const pb = client();
      const [provider] = (await pb.collection("users").listAuthMethods()).oauth2.providers;
      const back = await authorize(provider!.authURL + encodeURIComponent(redirectURL), identity);
      expect(back.searchParams.get("state")).toBe(provider!.state);
      const auth = await pb.collection("users").authWithOAuth2Code("oidc", back.searchParams.get("code")!, provider!.codeVerifier, redirectURL);
      return { pb, auth };
    };
    const first = await signIn();
    expect(first.auth.record).toMatchObject({ collectionName: "users", email: identity.email, name: identity.name, verified: true });
    expect(first.auth.meta).toMatchObject({ email: identity.email, name: identity.name, isNew: true });
    expect(first.pb.authStore.isValid).toBe(true);
    expect((await first.pb.collection("users").getOne(first.auth.record.id)).email).toBe(identity.email);

    const second = await signIn();
    expect(second.auth.record.id).toBe(first.auth.record.id);
    expect(second.auth.meta?.isNew).toBe(false);
  });

  it("refuses a staff identity, a bad code and the _superusers collection with PocketBase's errors", async () => {
    const redirectURL = `${server!.url}/mi-app/oauth`;
    const pb = client();
    const [provider] = (await pb.collection("users").listAuthMethods()).oauth2.providers;
    const back = await authorize(provider!.authURL + encodeURIComponent(redirectURL), { email: STAFF.email, name: STAFF.name });
    const staff = await failure(pb.collection("users").authWithOAuth2Code("oidc", back.searchParams.get("code")!, provider!.codeVerifier, redirectURL));
    expect(staff.response).toEqual({ status: 400, message: "Failed to authenticate.", data: {} });
    expect(pb.authStore.isValid).toBe(false);

    const badCode = await failure(pb.collection("users").authWithOAuth2Code("oidc", "no-es-un-codigo", provider!.codeVerifier, redirectURL));
    expect(badCode.response).toEqual({ status: 400, message: "Failed to fetch OAuth2 token.", data: {} });
    const unknown = await failure(pb.collection("users").authWithOAuth2Code("github", "x", "y", redirectURL));
    expect(unknown.response.data).toEqual({ provider: { code: "validation_invalid_provider", message: "Provider with name github is missing or is not enabled." } });
    const superusers = await failure(pb.collection("_superusers").authWithOAuth2Code("oidc", "x", "y", redirectURL));
    expect(superusers.response).toEqual({ status: 403, message: "The collection is not configured to allow OAuth2 authentication.", data: {} });
  });

  it("authWithOAuth2: the popup flow through realtime and /api/oauth2-redirect", async () => {
    const identity = { email: `popup-extra-${process.pid}@oidc.example`, name: "Pilar Popup" };
    // The realtime stream, its subscription and the popup come from one address, as in a browser.
    const pb = client({ loopback: true });
    let page = "";
    const auth = await pb.collection("users").authWithOAuth2({
      provider: "oidc",
      urlCallback: async (url) => {
        const back = await authorize(url, identity);
        expect(`${back.origin}${back.pathname}`).toBe(`${server!.url}/api/oauth2-redirect`);
        const response = await fetch(back, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        expect(response.status).toBe(200);
        page = await response.text();
      },
    });
    expect(auth.record).toMatchObject({ email: identity.email, verified: true });
    expect(auth.meta?.isNew).toBe(true);
    expect(pb.authStore.record?.email).toBe(identity.email);
    expect(page).toContain("Listo. Puede cerrar esta ventana.");
  });

  it("/api/oauth2-redirect without a matching client shows the failure page", async () => {
    const response = await fetch(`${server!.url}/api/oauth2-redirect?code=abc`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("No pudimos completar el inicio de sesión");
    // A provider's response_mode=form_post: a cross-site form POST reaches the page too.
    const formPost = await fetch(`${server!.url}/api/oauth2-redirect`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://proveedor.example" },
      body: "state=cliente-de-otro-proceso&code=abc",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    expect(formPost.status).toBe(200);
    expect(await formPost.text()).toContain("Listo. Puede cerrar esta ventana.");
  });
});

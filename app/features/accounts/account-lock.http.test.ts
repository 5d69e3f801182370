import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Credential stuffing (decision record 0036): one account's guesses spread over many addresses.
// The real production server over HTTP, a real SMTP server receiving its mail. Every password
// sign-in path shares one per-account limit: 40 attempts from 40 addresses get the normal refusal
// ACCOUNT_SIGN_IN_RULE.limit times, then 429 with the Spanish lock message — even with the right
// password — and an unknown email gets exactly the same answers. The owner gets one email.

await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("account-lock"));

import { registerCustomer } from "~/features/accounts/registration.server";
import { upsertStaffAccount } from "~/features/accounts/staff-account.server";
import { ACCOUNT_SIGN_IN_RULE } from "~/services/security/account-limit.server";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { exemptStaffFromMfa, requestMeta } from "../../../tests/support/auth-requests";
import { startSmtpTestServer, type SmtpTestServer } from "../../../tests/support/smtp-test-server";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";

const PASSWORD = "Fresadora-CNC-42";
const STAFF_PASSWORD = "Panel-Forja-Seguro-1";
const LOCK_SUBJECT = "Intentos fallidos de entrar a su cuenta de Forja";
const LOCK_MESSAGE = /^Demasiados intentos para esta cuenta\. Intente de nuevo en 1[45] minutos o restablezca su contraseña\.$/;
const ATTEMPTS = 40;

type Kind = "customer" | "staff";
interface LoginPath {
  name: string;
  /** Which kind of account signs in here. */
  kind: Kind;
  send(email: string, password: string, ip: string): Promise<Answer>;
}
interface Answer {
  status: number;
  /** What the answer says, without what varies per request (the email typed, nonces, tokens). */
  says: string;
  retryAfter: string | null;
}

const accounts = new Map<string, { email: string; kind: Kind }>();
function accountFor(path: string, kind: Kind) {
  const email = `${path.replace(/\W+/g, "-")}-${process.pid}@ejemplo.mx`.replace(/^-/, "");
  accounts.set(path, { email, kind });
  return email;
}

let server: TestServer | undefined;
let smtp: SmtpTestServer | undefined;
let ipCounter = 0;
/** A new client address for every request: the per-IP limit never applies. */
const nextIp = () => `198.18.${Math.floor((ipCounter += 1) / 250)}.${(ipCounter % 250) + 1}`;

async function post(path: string, ip: string, body: string, contentType: string): Promise<Response> {
  return fetch(`${server!.url}${path}`, {
    method: "POST",
    headers: { "content-type": contentType, "x-forwarded-for": ip, origin: server!.url },
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(15_000),
  });
}

/** The screens (no JavaScript): the form's message, or where a success redirects. */
async function page(path: string, email: string, password: string, ip: string): Promise<Answer> {
  const response = await post(path, ip, new URLSearchParams({ email, password }).toString(), "application/x-www-form-urlencoded");
  const html = await response.text();
  const message = /Demasiados intentos para esta cuenta[^<]*/.exec(html)?.[0] ?? /El correo o la contraseña no son correctos\./.exec(html)?.[0];
  return { status: response.status, says: message ?? response.headers.get("location") ?? "", retryAfter: response.headers.get("retry-after") };
}

async function json(path: string, body: Record<string, string>, ip: string): Promise<Answer> {
  const response = await post(path, ip, JSON.stringify(body), "application/json");
  const parsed = (await response.json()) as Record<string, unknown>;
  // Successful answers carry per-session tokens; failures are compared whole.
  const says = response.ok ? "ok" : JSON.stringify(parsed);
  return { status: response.status, says, retryAfter: response.headers.get("retry-after") };
}

const PATHS: LoginPath[] = [
  { name: "/login", kind: "customer", send: (email, password, ip) => page("/login", email, password, ip) },
  { name: "/admin/login", kind: "staff", send: (email, password, ip) => page("/admin/login", email, password, ip) },
  { name: "/api/auth/local", kind: "customer", send: (email, password, ip) => json("/api/auth/local", { identifier: email, password }, ip) },
  {
    name: "/api/collections/users/auth-with-password",
    kind: "customer",
    send: (email, password, ip) => json("/api/collections/users/auth-with-password", { identity: email, password }, ip),
  },
  {
    name: "/api/collections/_superusers/auth-with-password",
    kind: "staff",
    send: (email, password, ip) => json("/api/collections/_superusers/auth-with-password", { identity: email, password }, ip),
  },
  { name: "/api/sesion/sign-in/email", kind: "customer", send: (email, password, ip) => json("/api/sesion/sign-in/email", { email, password }, ip) },
];

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  for (const path of PATHS) accountFor(path.name, path.kind);
  accountFor("mixed", "customer");
  accountFor("reset-after", "customer");
  server = await startTestServer({
    env: { SMTP_URL: smtp.url },
    prepare: async () => {
      for (const [path, { email, kind }] of accounts) {
        if (kind === "staff") {
          await upsertStaffAccount({ name: "Personal de pruebas", email, password: STAFF_PASSWORD });
          // One step, so the password's lock is what these tests see (the second step: docs/decisions/0061).
          await exemptStaffFromMfa(email);
        }
        else {
          const registered = await registerCustomer(requestMeta("/registro", { method: "POST" }), { name: "Carla Cliente", email, password: PASSWORD });
          if (!registered.ok) throw new Error(`${path}: account not registered`);
        }
      }
    },
  });
}, 420_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
}, 60_000);

/** 40 wrong passwords from 40 addresses, then the right one from a 41st. */
async function stuff(path: LoginPath, email: string, rightPassword: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) answers.push(await path.send(email, `Adivinanza-${attempt}-x`, nextIp()));
  answers.push(await path.send(email, rightPassword, nextIp()));
  return answers;
}

function lockMessageOf(answer: Answer): string {
  if (answer.says.startsWith("{")) {
    const body = JSON.parse(answer.says) as { message?: string; error?: { message?: string } };
    return body.error?.message ?? body.message ?? "";
  }
  return answer.says;
}

describe("the per-account sign-in limit on every password sign-in path", { timeout: 180_000 }, () => {
  it.each(PATHS)("$name: refused after the limit from 40 addresses, even with the right password; an unknown email answers the same", async (path) => {
    const { email } = accounts.get(path.name)!;
    const rightPassword = path.kind === "staff" ? STAFF_PASSWORD : PASSWORD;
    const known = await stuff(path, email, rightPassword);
    const unknown = await stuff(path, `nadie-${path.name.replace(/\W+/g, "-")}-${process.pid}@ejemplo.mx`, rightPassword);

    const limit = ACCOUNT_SIGN_IN_RULE.limit;
    const refusals = known.slice(0, limit);
    expect(new Set(refusals.map((answer) => answer.status)).size).toBe(1);
    expect([400, 401]).toContain(refusals[0]!.status);
    for (const answer of known.slice(limit)) {
      expect(answer.status).toBe(429);
      expect(lockMessageOf(answer)).toMatch(LOCK_MESSAGE);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // Nothing tells the two apart: same statuses and messages in the same order.
    const shape = (answers: Answer[]) => answers.map((answer) => `${answer.status} ${answer.says.replaceAll(email, "<correo>")} ${answer.retryAfter ? "retry" : ""}`);
    const unknownShape = shape(unknown).map((line) => line.replace(/nadie-[\w-]+@ejemplo\.mx/g, "<correo>"));
    expect(unknownShape).toEqual(shape(known));
  });

  it("counts failures on one account across paths (one limiter)", async () => {
    const { email } = accounts.get("mixed")!;
    const customerPaths = PATHS.filter((path) => path.kind === "customer");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < ACCOUNT_SIGN_IN_RULE.limit + 3; attempt += 1) {
      statuses.push((await customerPaths[attempt % customerPaths.length]!.send(email, `Adivinanza-${attempt}-x`, nextIp())).status);
    }
    expect(statuses.slice(ACCOUNT_SIGN_IN_RULE.limit)).toEqual([429, 429, 429]);
    expect(statuses.slice(0, ACCOUNT_SIGN_IN_RULE.limit)).not.toContain(429);
  });

  it("emails each locked owner exactly once, and never an unknown email", async () => {
    const owners = [...accounts.entries()].filter(([path]) => path !== "reset-after").map(([, { email }]) => email);
    await smtp!.waitForMessages(owners.length, 30_000);
    // A late duplicate would arrive within the mail worker's next rounds.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const lockMails = smtp!.received.filter((mail) => mail.parsed.subject === LOCK_SUBJECT);
    expect(lockMails.flatMap((mail) => mail.envelopeTo).sort()).toEqual(owners.sort());
    expect(smtp!.received.some((mail) => mail.envelopeTo.some((to) => to.startsWith("nadie-")))).toBe(false);
    const text = lockMails[0]!.parsed.text ?? "";
    expect(text).toContain("intentos fallidos");
    expect(text).toContain("/recuperar");
  });

  it("the per-IP limit still applies on its own (unknown emails, one address)", async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= RATE_LIMITS.signIn.limit; attempt += 1) {
      statuses.push((await PATHS[2]!.send(`ip-${attempt}-${process.pid}@ejemplo.mx`, "Adivinanza-x", ip)).status);
    }
    expect(statuses).toEqual([...Array.from({ length: RATE_LIMITS.signIn.limit }, () => 400), 429]);
  });

  it("signs in normally below the limit, and a success clears the failures", async () => {
    const { email } = accounts.get("reset-after")!;
    const path = PATHS[0]!;
    for (let round = 0; round < 2; round += 1) {
      for (let attempt = 0; attempt < ACCOUNT_SIGN_IN_RULE.limit - 1; attempt += 1) expect((await path.send(email, `Adivinanza-${attempt}`, nextIp())).status).toBe(400);
      expect((await path.send(email, PASSWORD, nextIp())).status).toBe(302);
    }
  });
});

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { startOidcTestServer, type OidcTestServer } from "../support/oidc-test-server";
import { startSmtpTestServer, type SmtpTestServer } from "../support/smtp-test-server";
import { MEDIA_SEED_LOG, PROJECT_ROOT, exemptAdminFromMfa, nodeBinary, runAdminCreate, startServer, type RunningServer } from "./support/server";

// Builds when the sources are newer than the build, then starts, for the whole run:
// - a real SMTP server on loopback that writes every message it receives to E2E_MAIL_DIR;
// - an OpenID Connect provider on loopback (oauth2-mock-server), the app's "oidc" provider;
// - the staff account, created with `scripts/admin-create.mjs` in the server's DATA_DIR before the
//   server starts (the embedded database belongs to one process while it runs), and exempted there
//   from the admins' second step, so the API clients of many specs sign it in with its password;
// - a second admin who keeps the two steps (docs/decisions/0061), for the tests of that sign-in;
// - one production server (PORT=0, its own temporary DATA_DIR, FORJA_ERROR_ROUTE=1).
// Everything is stopped afterwards, each by its own handle.

const STAFF_ACCOUNT = {
  email: "personal.e2e@forja.example",
  password: "Fresadora-CNC-2026!",
  name: "Rocío Administradora",
};
/** An admin who signs in in two steps: password, then the emailed code. */
const TWO_STEP_ADMIN = {
  email: "admin.dos.pasos.e2e@forja.example",
  password: "Torno-Paralelo-2026!",
  name: "Mariana Dos Pasos",
};
const OIDC_NAME = "Forja ID de pruebas";
const MAIL_STAFF_TO = "ventas.e2e@forja.example";

export default async function globalSetup(_config: FullConfig) {
  execFileSync(nodeBinary(), [path.join(PROJECT_ROOT, "scripts/ensure-build.mjs")], {
    cwd: PROJECT_ROOT,
    stdio: "inherit",
    timeout: 300_000,
  });

  const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-e2e-mail-"));
  let smtp: SmtpTestServer | undefined;
  let oidc: OidcTestServer | undefined;
  let server: RunningServer | undefined;
  const stopAll = async () => {
    await server?.stop();
    await oidc?.stop();
    await smtp?.stop();
    fs.rmSync(mailDir, { recursive: true, force: true });
  };

  try {
    smtp = await startSmtpTestServer({ mailDir });
    oidc = await startOidcTestServer();
    server = await startServer({
      env: {
        SMTP_URL: smtp.url,
        MAIL_STAFF_TO,
        OIDC_ISSUER: oidc.issuer,
        OIDC_CLIENT_ID: oidc.clientId,
        OIDC_CLIENT_SECRET: oidc.clientSecret,
        OIDC_NAME,
      },
      // The tests start once the site's pictures are in the media library (or the server gave up).
      readyLog: MEDIA_SEED_LOG,
      beforeStart: async (paths) => {
        for (const account of [STAFF_ACCOUNT, TWO_STEP_ADMIN]) {
          const created = await runAdminCreate(paths, account);
          if (created.code !== 0) throw new Error(`admin-create falló (código ${created.code}):\n${created.stdout}\n${created.stderr}`);
        }
        await exemptAdminFromMfa(paths.dataDir, STAFF_ACCOUNT.email);
      },
    });
  } catch (error) {
    await stopAll();
    throw error;
  }

  // Workers start after this and inherit the environment; playwright.config.ts reads it for baseURL.
  Object.assign(process.env, {
    E2E_BASE_URL: server.url,
    E2E_BUILD_DIR: server.buildDir,
    E2E_SERVER_ROOT: server.root,
    E2E_DATA_DIR: server.dataDir,
    E2E_SERVER_PID: String(server.pid),
    E2E_MAIL_DIR: mailDir,
    E2E_MAIL_STAFF_TO: MAIL_STAFF_TO,
    E2E_OIDC_ISSUER: oidc.issuer,
    E2E_OIDC_NAME: OIDC_NAME,
    E2E_STAFF_EMAIL: STAFF_ACCOUNT.email,
    E2E_STAFF_PASSWORD: STAFF_ACCOUNT.password,
    E2E_STAFF_NAME: STAFF_ACCOUNT.name,
    E2E_TWO_STEP_ADMIN_EMAIL: TWO_STEP_ADMIN.email,
    E2E_TWO_STEP_ADMIN_PASSWORD: TWO_STEP_ADMIN.password,
    E2E_TWO_STEP_ADMIN_NAME: TWO_STEP_ADMIN.name,
  });
  console.log(`Servidor de pruebas en ${server.url} (PID ${server.pid}); SMTP ${smtp.url}; OIDC ${oidc.issuer}`);

  return stopAll;
}

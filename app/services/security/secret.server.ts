import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";

/** The file's secret, read once per process (the environment, DATA_DIR included, is fixed per process). */
let fileSecret: string | undefined;

/**
 * AUTH_SECRET when set; otherwise a random secret kept in DATA_DIR/auth-secret (0600) so sessions
 * survive restarts of a single machine. Several machines must share an AUTH_SECRET. The file is read
 * once per process, like better-auth reads the secret once at start: a synchronous read on every
 * request (a form's token, a record API token) blocked the request thread for nothing.
 */
export function getAuthSecret(): string {
  const env = getEnv();
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  fileSecret ??= readOrCreateSecret(path.join(env.dataDir, "auth-secret"), env.dataDir, Boolean(env.DATABASE_URL));
  return fileSecret;
}

function readOrCreateSecret(file: string, dataDir: string, sharedDatabase: boolean): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    } catch {
      // Another process wrote it first: use theirs.
      return fs.readFileSync(file, "utf8").trim();
    }
    if (sharedDatabase) logger.warn("AUTH_SECRET is not set: several app servers must share one; using DATA_DIR/auth-secret");
    return secret;
  }
}

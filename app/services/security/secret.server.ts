import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";

/**
 * AUTH_SECRET when set; otherwise a random secret kept in DATA_DIR/auth-secret (0600) so sessions
 * survive restarts of a single machine. Several machines must share an AUTH_SECRET.
 */
export function getAuthSecret(): string {
  const env = getEnv();
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.join(env.dataDir, "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(env.dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    } catch {
      // Another process wrote it first: use theirs.
      return fs.readFileSync(file, "utf8").trim();
    }
    if (env.DATABASE_URL) logger.warn("AUTH_SECRET is not set: several app servers must share one; using DATA_DIR/auth-secret");
    return secret;
  }
}

// The environment of one integration test file, set before the app reads it (getEnv() caches it):
// call through `await vi.hoisted(async () => (await import(".../test-env")).isolateTestEnv("name"))`.

/** Settings that would reach outside the test: a server database, SMTP, the public origin, a shared secret. */
const OUTSIDE = ["DATABASE_URL", "SMTP_URL", "PUBLIC_URL", "AUTH_SECRET"];

/**
 * Points DATA_DIR at a fresh folder for this file (returned, for the file to remove afterwards) and
 * unsets OUTSIDE plus `unset`; then applies `set`.
 */
export function isolateTestEnv(label: string, options: { unset?: string[]; set?: Record<string, string> } = {}): string {
  const dir = `${process.env.TMPDIR ?? "/tmp"}/forja-${label}-test-${process.pid}-${Date.now()}`;
  process.env.DATA_DIR = dir;
  for (const name of [...OUTSIDE, ...(options.unset ?? [])]) delete process.env[name];
  Object.assign(process.env, options.set);
  return dir;
}

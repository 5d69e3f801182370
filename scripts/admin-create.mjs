// npm run admin:create -- --email persona@empresa.com --password '…' --name 'Nombre Apellido'
// Creates the staff account, or updates its password and name when it exists.
import { execSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";

const { values } = parseArgs({
  options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
  strict: true,
});

execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
const server = await import(pathToFileURL(path.resolve("build/server/index.js")).href);
try {
  console.log(await server.runAdminCreate(values));
  process.exit(0);
} catch (error) {
  console.error(`No se creó la cuenta: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

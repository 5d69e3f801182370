// npm run restore -- ARCHIVO
// Restores a backup (a name where backups go, DATA_DIR/backups or the S3 bucket, or the path of a
// .zip, stored there first), keeping the current state as one more backup first, as
// POST /api/backups/{key}/restore does.
import { execSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
const server = await import(pathToFileURL(path.resolve("build/server/index.js")).href);
try {
  console.log(await server.runRestoreCommand(process.argv[2]));
  process.exit(0);
} catch (error) {
  console.error(`No se restauró el respaldo: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

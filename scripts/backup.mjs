// npm run backup [-- nombre_del_respaldo.zip]
// Makes a backup (database and stored files) where backups go (DATA_DIR/backups, or the S3 bucket of
// the settings' backups.s3 or S3_*), as POST /api/backups does.
import { execSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
const server = await import(pathToFileURL(path.resolve("build/server/index.js")).href);
try {
  console.log(await server.runBackupCommand({ name: process.argv[2] }));
  process.exit(0);
} catch (error) {
  console.error(`No se hizo el respaldo: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

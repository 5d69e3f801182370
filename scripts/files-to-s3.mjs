// npm run files:to-s3 [-- --borrar-originales]
// Copies the stored files (DATA_DIR/uploads with PGlite, the database with PostgreSQL) into the S3
// bucket of the settings' `s3` (or S3_*), checking each copy read back; safe to run again. The
// originals stay unless --borrar-originales is given (each only after its copy checked out).
import { execSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

execSync("node scripts/ensure-build.mjs", { stdio: "inherit" });
const server = await import(pathToFileURL(path.resolve("build/server/index.js")).href);
try {
  const { message, ok } = await server.runFilesToS3Command(process.argv.slice(2));
  console.log(message);
  process.exit(ok ? 0 : 1);
} catch (error) {
  console.error(`No se copiaron los archivos a S3: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}

// `npm start` serves the production build; build it first when it is missing or older than the sources.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const marker = path.resolve("build/server/index.js");
const sources = ["app", "server", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
const changed = Math.max(...sources.map((source) => newestMtime(path.resolve(source))));
if (built === 0 || changed > built) {
  console.log(built === 0 ? "Compilando el sitio por primera vez…" : "Hay cambios desde la última compilación; compilando…");
  execSync("npm run build", { stdio: "inherit" });
}

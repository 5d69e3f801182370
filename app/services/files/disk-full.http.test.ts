import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cotizaPageToken, quoteFormData, validQuoteFields } from "../../../tests/support/solicitud-requests";
import { pdfFile } from "../../../tests/support/minimal-files";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { NO_SPACE_MESSAGE } from "./storage.server";

// A full disk while an upload is stored (issue 17 §6): a real ENOSPC from a 2 MB tmpfs mounted over
// the server's uploads directory. The sender gets a clear Spanish 507, nothing half-stored stays,
// and the server keeps serving (docs/decisions/0044).

const SPACE = "6m";
let dataDir: string;
let uploads: string;
let mounted = false;
let server: TestServer | undefined;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "forja-disco-lleno-"));
  uploads = path.join(dataDir, "uploads");
  fs.mkdirSync(uploads);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${SPACE},mode=0755`, "tmpfs", uploads], { stdio: "pipe" });
  } catch (error) {
    throw new Error(`Esta prueba monta un tmpfs pequeño para llenarlo y necesita permisos de root: ${(error as Error).message}`);
  }
  mounted = true;
  server = await startTestServer({ dataDir });
}, 360_000);

afterAll(async () => {
  await server?.stop();
  if (mounted) execFileSync("umount", [uploads]);
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

function send(url: string, token: string, file: Uint8Array, name: string) {
  const body = quoteFormData(
    validQuoteFields({ description: `Prueba de disco lleno: ménsula de acero con dos barrenos, archivo ${name}.`, email: `disco-${randomUUID().slice(0, 8)}@ejemplo.mx`, formToken: token, formNonce: randomUUID(), formFillMs: "4000" }),
    [{ name, bytes: file, type: "application/pdf" }],
  );
  return fetch(`${url}/api/cotiza`, { method: "POST", body, headers: { Origin: url, "X-Forwarded-For": `10.88.0.${Math.floor(Math.random() * 200) + 1}` }, signal: AbortSignal.timeout(60_000) });
}

/** Every file under the uploads directory (the temporary ones included), relative to it. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe("a full disk while storing an upload", () => {
  it("answers 507 in Spanish, keeps nothing half-stored, and the server keeps serving", async () => {
    const { url } = server!;
    const token = await cotizaPageToken(url);
    // The demo catalogue's CAD files are written in the background after the start: let them land.
    let before = filesUnder(uploads);
    for (let stableSince = Date.now(), deadline = Date.now() + 120_000; Date.now() - stableSince < 5_000 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = filesUnder(uploads);
      if (now.join() !== before.join()) [before, stableSince] = [now, Date.now()];
    }

    // A file 1 MB larger than the space left.
    const { bavail, bsize } = fs.statfsSync(uploads);
    const tooBig = pdfFile(randomBytes(Math.ceil((bavail * bsize + 1024 * 1024) / 2)).toString("hex"));
    const refused = await send(url, token, tooBig, "plano-grande.pdf");
    expect(refused.status).toBe(507);
    expect(JSON.stringify(await refused.json())).toContain(NO_SPACE_MESSAGE);
    expect(filesUnder(uploads), "nothing of the refused upload is left").toEqual(before);

    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    // A file that fits is stored as usual.
    const small = await send(url, token, pdfFile(randomBytes(32 * 1024).toString("hex")), "plano-chico.pdf");
    const answer = (await small.json()) as { ok?: boolean; number?: string };
    expect(small.status, JSON.stringify(answer)).toBe(200);
    expect(answer.number).toMatch(/^SOL-\d{4}-\d{4}$/);
  }, 180_000);
});

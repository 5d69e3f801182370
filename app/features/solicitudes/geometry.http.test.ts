import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

// A quote request with CAD files through the real production server (build/, its geometry worker
// bundle and occt-import-js from node_modules): the request is stored at once, and the staff detail
// page then shows the figures the server's background job measured, or why there are none.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("cad-geometry-http"));

import { asciiDxfFile } from "../../../tests/support/minimal-files";
import { agedFormToken, validQuoteFields } from "../../../tests/support/solicitud-requests";
import { useStaffTestServer } from "../../../tests/support/staff-test-server";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const STAFF = { name: "Personal Geometría", email: `personal-geometria-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };

const running = useStaffTestServer(dataDir, STAFF);

async function staffPage(pathname: string): Promise<string> {
  const response = await fetch(`${running.server.url}${pathname}`, { headers: { cookie: running.staffCookie }, redirect: "manual", signal: AbortSignal.timeout(15_000) });
  expect(response.status).toBe(200);
  return response.text();
}

describe("server geometry of /cotiza attachments", () => {
  it("stores the request at once and shows staff the STEP's figures, and why the others have none", { timeout: 120_000 }, async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries(validQuoteFields({ email: `cad-${process.pid}@ejemplo.mx` }))) for (const item of [value].flat()) form.append(key, item);
    form.set("formToken", agedFormToken("cotiza"));
    const file = (name: string, bytes: Uint8Array) => new File([new Uint8Array(bytes)], name, { type: "application/octet-stream" });
    form.append("files", file("Cubo de 10 mm.step", fs.readFileSync(path.join(ROOT, "tests/fixtures/cad/cube-10mm.step"))));
    form.append("files", file("Pieza cortada.stp", fs.readFileSync(path.join(ROOT, "tests/fixtures/cad/corrupt-cut-off.step"))));
    form.append("files", file("Plano.dxf", asciiDxfFile()));
    const response = await fetch(`${running.server.url}/api/cotiza`, { method: "POST", body: form, headers: { Origin: running.server.url, "X-Forwarded-For": "10.93.0.7" }, signal: AbortSignal.timeout(15_000) });
    expect(await response.json()).toMatchObject({ ok: true });

    const list = await staffPage("/admin/formularios");
    const id = /\/admin\/formularios\/([0-9a-f-]{36})/.exec(list)?.[1];
    expect(id).toBeDefined();

    // The job measures in the background: wait until no file is still being calculated.
    let page = "";
    const deadline = Date.now() + 60_000;
    do {
      page = await staffPage(`/admin/formularios/${id}`);
      if (!page.includes("Calculando…")) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    } while (Date.now() < deadline);

    const text = page.replace(/<!-- -->/g, "");
    expect(text).toContain('data-geometry="ok"');
    expect(text).toMatch(/Volumen<\/dt><dd[^>]*>1 cm³/);
    expect(text).toMatch(/Área de superficie<\/dt><dd[^>]*>6 cm²/);
    expect(text).toContain("10 × 10 × 10 mm");
    expect(text).toContain('data-geometry="unreadable"');
    expect(text).toContain("Sin estimación: No pudimos leer la geometría de este archivo.");
    // The drawing is not a 3D model: no figures and no reason under it.
    expect(text.match(/data-geometry=/g)).toHaveLength(2);
  });
});

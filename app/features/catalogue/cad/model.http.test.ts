import { describe, expect, it, vi } from "vitest";

// The demo parts' CAD models through the real production server (build/, its CAD worker bundle and
// the model cache `npm run build` filled): the product page shows the drawing and the downloads, the
// card and JSON-LD show the rendered image, the files answer with the right headers, an old or made-up
// fingerprint is a 404, and an inactive product's model is for staff only (docs/decisions/0025).

const dataDir = await vi.hoisted(async () => (await import("../../../../tests/support/test-env")).isolateTestEnv("cad-model-http"));

import { useStaffTestServer } from "../../../../tests/support/staff-test-server";

const STAFF = { name: "Personal Modelos", email: `personal-modelos-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const FLANGE = "/catalogo/brida-slip-on-acero-2-in-clase-150";

const running = useStaffTestServer(dataDir, STAFF);

const get = (pathname: string, cookie = "") => fetch(`${running.server.url}${pathname}`, { headers: cookie ? { cookie } : {}, redirect: "manual", signal: AbortSignal.timeout(15_000) });

/** The product page once its model is built (the job takes it from the cache within seconds of the start). */
async function pageWithModel(pathname: string): Promise<string> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const html = await (await get(pathname)).text();
    if (html.includes("Dibujo y modelo CAD")) return html;
    if (Date.now() > deadline) throw new Error(`no model on ${pathname}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const urlsIn = (html: string, pattern: RegExp) => [...new Set([...html.matchAll(pattern)].map((match) => match[0]))];

describe("catalogue CAD models over HTTP", () => {
  it("shows the drawing, the downloads and the rendered image of a demo part", { timeout: 120_000 }, async () => {
    const html = await pageWithModel(FLANGE);
    const [drawing] = urlsIn(html, /\/catalogo\/brida-slip-on-acero-2-in-clase-150\/cad\/[0-9a-f]{32}\/dibujo\.svg/g);
    const [step] = urlsIn(html, /\/catalogo\/brida-slip-on-acero-2-in-clase-150\/cad\/[0-9a-f]{32}\/modelo\.step/g);
    const [stl] = urlsIn(html, /\/catalogo\/brida-slip-on-acero-2-in-clase-150\/cad\/[0-9a-f]{32}\/modelo\.stl/g);
    expect(drawing && step && stl).toBeTruthy();
    // React separates adjacent text with empty comments in server HTML.
    expect(html.replaceAll("<!-- -->", "")).toContain("Medidas generales: 152.4 × 152.4 × 26.1 mm");
    // The drawing is written into the page (decision 0071): the file's own SVG, named as an image.
    const inline = /<div role="img" aria-label="Dibujo técnico de [^"]+"[^>]*>(<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*?<\/svg>)<\/div>/.exec(html)?.[1];
    expect(inline).toMatch(/viewBox="0 0 \d+ \d+" width="\d+" height="\d+"/);

    const svg = await get(drawing!);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(svg.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'; style-src 'unsafe-inline'");
    // Opened on its own, the drawing downloads.
    expect(svg.headers.get("content-disposition")).toMatch(/^attachment; filename="FOR-BRD-150\.svg"/);
    const served = await svg.text();
    expect(served).toContain("FOR-BRD-150");
    expect(inline).toBe(served);

    const stepFile = await get(step!);
    expect(stepFile.status).toBe(200);
    expect(stepFile.headers.get("content-disposition")).toBe(`attachment; filename="FOR-BRD-150.step"; filename*=UTF-8''FOR-BRD-150.step`);
    expect(stepFile.headers.get("x-content-type-options")).toBe("nosniff");
    expect(stepFile.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    expect(new TextDecoder().decode((await stepFile.arrayBuffer()).slice(0, 12))).toBe("ISO-10303-21");

    const stlFile = Buffer.from(await (await get(stl!)).arrayBuffer());
    expect(stlFile.length).toBe(84 + 50 * stlFile.readUInt32LE(80));

    // The render is the product's first photo: on the page, in Open Graph and in JSON-LD.
    expect(html).toMatch(/<meta property="og:image" content="[^"]+\/imagenes\/productos\/[0-9a-f-]{36}\/1600\.webp"/);
    expect(html).toMatch(/"image":\["[^"]+\/imagenes\/productos\/[0-9a-f-]{36}\/1600\.webp"\]/);
    expect(html).toContain("modelo 3D");
    const photo = /\/imagenes\/productos\/[0-9a-f-]{36}\/640\.webp/.exec(html)?.[0];
    const photoFile = await get(photo!);
    // File routes send their own headers once: one sandboxing policy, one nosniff.
    expect(photoFile.headers.get("x-content-type-options")).toBe("nosniff");
    expect(photoFile.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");

    // A made-up fingerprint, another file name, or a path escape: not found.
    for (const wrong of [drawing!.replace(/[0-9a-f]{32}/, "0".repeat(32)), drawing!.replace("dibujo.svg", "dibujo.png"), `${FLANGE}/cad/x/..%2F..%2Fmodelo.step`]) {
      expect((await get(wrong)).status, wrong).toBe(404);
    }
  });

  it("the catalogue's cards show every demo part's image", { timeout: 120_000 }, async () => {
    await pageWithModel("/catalogo/placa-montaje-aluminio-6061-300x200");
    const deadline = Date.now() + 90_000;
    for (;;) {
      const html = await (await get("/catalogo?pagina=1")).text();
      const tiles = (html.match(/Sin fotografía:/g) ?? []).length;
      if (tiles === 0) {
        expect((html.match(/modelo 3D/g) ?? []).length).toBeGreaterThan(0);
        return;
      }
      if (Date.now() > deadline) throw new Error(`${tiles} cards still without an image`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });

  it("an inactive product's model is for staff only", { timeout: 120_000 }, async () => {
    const html = await pageWithModel("/catalogo/buje-bridado-bronce-sinterizado-20-mm");
    const [drawing] = urlsIn(html, /\/catalogo\/buje-bridado-bronce-sinterizado-20-mm\/cad\/[0-9a-f]{32}\/dibujo\.svg/g);
    const admin = await (await get("/admin/productos?q=FOR-BUJ-841", running.staffCookie)).text();
    const id = /\/admin\/productos\/([0-9a-f-]{36})/.exec(admin)?.[1];
    expect(id).toBeTruthy();
    const form = new URLSearchParams({ intent: "desactivar" });
    const deactivated = await fetch(`${running.server.url}/admin/productos/${id}`, {
      method: "POST",
      body: form,
      headers: { cookie: running.staffCookie, "content-type": "application/x-www-form-urlencoded", origin: running.server.url },
      redirect: "manual",
    });
    expect(deactivated.status).toBeLessThan(400);
    try {
      expect((await get(drawing!)).status).toBe(404);
      const staff = await get(drawing!, running.staffCookie);
      expect(staff.status).toBe(200);
      expect(staff.headers.get("cache-control")).toBe("private, no-store");
      // Staff see the model's state on the product's screen.
      expect(await (await get(`/admin/productos/${id}`, running.staffCookie)).text()).toContain("Modelo paramétrico: la página del producto muestra su dibujo");
    } finally {
      await fetch(`${running.server.url}/admin/productos/${id}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "activar" }),
        headers: { cookie: running.staffCookie, "content-type": "application/x-www-form-urlencoded", origin: running.server.url },
        redirect: "manual",
      });
    }
  });
});

import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The public pages that show services and industries, served by the real production server (its
// page cache included) while staff publish through the record API (issue 16 §1 and §6): each page
// follows the collections it shows, so the next request after a publish answers the new words.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("site-pages-http"));

import { registerCollections } from "~/services/content/registry.server";
import { seedContent } from "~/services/content/seed.server";
import { signedInStaff } from "../../../tests/support/auth-requests";
import { sdkClient } from "../../../tests/support/sdk-client";
import { startTestServer, type TestServer } from "../../../tests/support/test-server";
import { siteContentCollections } from "./content-collections/all-collections";

const STAFF = { name: "Editora Páginas", email: `editora-paginas-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };

let server: TestServer | undefined;
let staff: PocketBase;

beforeAll(async () => {
  server = await startTestServer({
    dataDir,
    prepare: async () => {
      registerCollections(siteContentCollections);
      await seedContent();
      await signedInStaff(STAFF.email, STAFF.password, STAFF.name);
    },
  });
  staff = sdkClient(server.url);
  await staff.collection("_superusers").authWithPassword(STAFF.email, STAFF.password);
}, 360_000);

afterAll(async () => {
  await server?.stop();
});

/** The page's HTML, read twice so the second answer is the cached one when the page is cached. */
async function page(path: string): Promise<string> {
  await fetch(`${server!.url}${path}`);
  const response = await fetch(`${server!.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The record of `slug` in a collection, as staff read it. */
async function record(collection: string, slug: string) {
  return staff.collection(collection).getFirstListItem(`slug = '${slug}'`);
}

describe("pages after a publish", () => {
  it("a renamed service is shown by /servicios, the home page and the industry pages that name it", async () => {
    for (const path of ["/servicios", "/", "/industrias-design/aeroespacial"]) expect(await page(path)).toContain("Maquinado CNC");
    const cnc = await record("servicios", "maquinado-cnc");
    await staff.collection("servicios").update(cnc.id, { nombre: "Maquinado CNC de precisión" });
    for (const path of ["/servicios", "/", "/industrias-design/aeroespacial"]) expect(await page(path), path).toContain("Maquinado CNC de precisión");
    // React separates the two text nodes of «Cotizar {name}» with a comment.
    expect(await page("/servicios")).toMatch(/Cotizar (<!-- -->)?maquinado CNC de precisión</);
  });

  it("an unpublished service is gone from /servicios and the home page", async () => {
    const reverse = await record("servicios", "ingenieria-inversa");
    expect(await page("/servicios")).toContain('id="ingenieria-inversa"');
    await staff.collection("servicios").update(reverse.id, { publicado: false });
    const services = await page("/servicios");
    expect(services).not.toContain('id="ingenieria-inversa"');
    expect(services).toContain("Siete servicios que se combinan");
    expect(await page("/")).not.toContain("/servicios#ingenieria-inversa");
  });

  it("an industry's new introduction and headline are on its page; /industrias shows its new summary", async () => {
    const mining = await record("industrias", "minera");
    await staff.collection("industrias").update(mining.id, {
      titular: "Refacciones mineras que llegan antes del paro",
      introduccion: "Fabricamos **refacciones de desgaste** para la minería del Bajío.",
      resumen: "Refacciones de desgaste y equipo para la minería, con entregas programadas.",
    });
    const html = await page("/industrias-design/minera");
    expect(html).toContain("Refacciones mineras que llegan antes del paro");
    expect(html).toContain("Fabricamos <strong>refacciones de desgaste</strong> para la minería del Bajío.");
    expect(await page("/industrias")).toContain("Refacciones de desgaste y equipo para la minería, con entregas programadas.");
  });

  it("an unpublished industry answers 404 and leaves the sitemap", async () => {
    const energy = await record("industrias", "energia");
    await staff.collection("industrias").update(energy.id, { publicado: false });
    expect((await fetch(`${server!.url}/industrias-design/energia`)).status).toBe(404);
    expect(await page("/industrias")).not.toContain("/industrias-design/energia");
    expect(await (await fetch(`${server!.url}/sitemap.xml`)).text()).not.toContain("/industrias-design/energia");
  });

  it("the about page shows its record's new headline", async () => {
    const aboutRecord = await record("paginas", "about");
    expect(await page("/about")).toContain("Ingeniería y manufactura bajo un mismo techo");
    await staff.collection("paginas").update(aboutRecord.id, { titular: "Diseño y planta en Querétaro desde 2015" });
    expect(await page("/about")).toContain("Diseño y planta en Querétaro desde 2015");
  });
});

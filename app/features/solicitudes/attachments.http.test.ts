import { beforeAll, describe, expect, it, vi } from "vitest";

// Uploads that carry HTML (decision record 0036), through the real production server: /api/cotiza
// refuses markup that only claims to be OBJ or DXF, stores a valid STEP, PNG or PDF with HTML
// behind its header, and the staff download serves each one so it can never render as a page.
// File names are data: traversal, an RTL override and 300+ characters are stored, downloaded under
// a safe Content-Disposition and shown escaped and shortened on /admin/formularios/{id}.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("attachments-http"));

import { pdfFile, pngFile, stepFile } from "../../../tests/support/minimal-files";
import { agedFormToken, quoteFormData, validQuoteFields } from "../../../tests/support/solicitud-requests";
import { useStaffTestServer } from "../../../tests/support/staff-test-server";

const STAFF = { name: "Personal Archivos", email: `personal-archivos-${process.pid}@forja.mx`, password: "Panel-Forja-Seguro-1" };
const HTML = '\n<!DOCTYPE html><html><body><script>document.title="pwned"</script><img src=x onerror=alert(1)></body></html>\n';
const LONG_NAME = `<img src=x onerror=alert(1)>${"plano-de-la-ménsula-".repeat(15)}rev-2.step`;
const RTL_NAME = "factura\u202Egnp.step";

const running = useStaffTestServer(dataDir, STAFF);
let ipCounter = 0;

const withHtml = (bytes: Uint8Array) => new Uint8Array(Buffer.concat([Buffer.from(bytes), Buffer.from(HTML)]));

async function sendQuote(files: { name: string; bytes: Uint8Array }[]): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const form = quoteFormData(validQuoteFields({ email: `archivos-${process.pid}-${ipCounter}@ejemplo.mx`, formToken: agedFormToken("cotiza") }), files);
  const response = await fetch(`${running.server.url}/api/cotiza`, {
    method: "POST",
    body: form,
    headers: { Origin: running.server.url, "X-Forwarded-For": `10.94.0.${(ipCounter += 1)}` },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

async function staffGet(pathname: string): Promise<Response> {
  return fetch(`${running.server.url}${pathname}`, { headers: { cookie: running.staffCookie }, redirect: "manual", signal: AbortSignal.timeout(15_000) });
}

describe("file names no one gives", () => {
  it.each([
    ["a NUL byte", "plano\u0000.pdf"],
    ["100 000 characters", `${"x".repeat(100_000)}.pdf`],
  ])("a name with %s gets an answer in Spanish (400) that keeps what was typed, not a closed connection", async (_label, name) => {
    const answer = await sendQuote([{ name, bytes: pdfFile() }]);
    expect(answer.status).toBe(400);
    const result = answer.body.result as { initialValue: Record<string, string>; error: Record<string, string[]> };
    expect(answer.body.ok).toBe(false);
    // The multipart reader refuses the part (its header is past its limit, or not text): the form's message.
    expect(Object.values(result.error).flat().join(" ")).toMatch(/No pudimos leer el formulario completo|El nombre de un archivo no es válido/);
    expect(result.initialValue).toMatchObject({ name: "Ana Torres", description: expect.stringContaining("banda transportadora") });
  });
});

describe("HTML that only claims to be a CAD file", () => {
  it.each([
    ["pieza.obj", "OBJ", new TextEncoder().encode(HTML)],
    ["pieza.obj", "OBJ", new TextEncoder().encode(`v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3${HTML}`)],
    ["plano.dxf", "DXF", new TextEncoder().encode(HTML)],
    ["plano.dxf", "DXF", new TextEncoder().encode(`0\nSECTION\n2\nENTITIES${HTML}`)],
  ])("%s (%s) is refused with a Spanish message", async (name, format, bytes) => {
    const answer = await sendQuote([{ name, bytes }]);
    expect(answer.status).toBe(400);
    expect(answer.body.ok).toBe(false);
    expect(answer.text).toContain(`«${name}» no es un archivo ${format} válido: su contenido no corresponde a la extensión.`);
  });
});

describe("a valid header with HTML behind it, and names that are data", () => {
  let solicitudId = "";
  let detail = "";

  beforeAll(async () => {
    const answer = await sendQuote([
      { name: "soporte.step", bytes: withHtml(stepFile()) },
      { name: "foto.png", bytes: withHtml(pngFile()) },
      { name: "plano.pdf", bytes: withHtml(pdfFile()) },
      { name: "../../../etc/passwd.step", bytes: stepFile() },
      { name: "..\\..\\windows\\win.step", bytes: stepFile() },
      { name: RTL_NAME, bytes: stepFile() },
      { name: LONG_NAME, bytes: stepFile() },
    ]);
    expect(answer.body).toMatchObject({ ok: true });
    const list = await (await staffGet("/admin/formularios")).text();
    solicitudId = /\/admin\/formularios\/([0-9a-f-]{36})/.exec(list)?.[1] ?? "";
    expect(solicitudId).not.toBe("");
    const page = await staffGet(`/admin/formularios/${solicitudId}`);
    expect(page.status).toBe(200);
    // What the page shows (its hydration data after <main> carries the names as JSON strings).
    const html = (await page.text()).replace(/<!-- -->/g, "");
    detail = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
  }, 120_000);

  /** Each file's download link on the staff page, by the name shown in its title. */
  function downloads(): { title: string; shown: string; href: string }[] {
    const found: { title: string; shown: string; href: string }[] = [];
    const pattern = /<span[^>]*title="([^"]*)"[^>]*data-file-name="true"[^>]*>([^<]*)<\/span>[\s\S]*?href="(\/admin\/formularios\/[^"]+\/archivos\/[^"]+)"/g;
    for (const match of detail.matchAll(pattern)) found.push({ title: match[1]!, shown: match[2]!, href: match[3]! });
    return found;
  }

  it("stores them all and serves each as a sandboxed download of its detected type", async () => {
    const files = downloads();
    expect(files).toHaveLength(7);
    const expectedType: Record<string, string> = { "soporte.step": "model/step", "foto.png": "image/png", "plano.pdf": "application/pdf" };
    for (const file of files) {
      const response = await staffGet(file.href);
      expect(response.status, file.title).toBe(200);
      expect(response.headers.get("content-type"), file.title).toBe(expectedType[file.title] ?? "model/step");
      expect(response.headers.get("content-disposition"), file.title).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[\w%.!~-]+$/);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.getSetCookie()).toEqual([]);
      // One policy, the file's own (not the pages' with scripts by nonce).
      expect(response.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
      const body = Buffer.from(await response.arrayBuffer());
      if (file.title in expectedType) expect(body.toString("latin1")).toContain("<script>"); // kept byte for byte, neutralised by the headers
    }
  });

  it("downloads traversal and RTL names under a safe name", async () => {
    const dispositions = await Promise.all(downloads().map(async (file) => (await staffGet(file.href)).headers.get("content-disposition") ?? ""));
    for (const value of dispositions) {
      const decoded = decodeURIComponent(value.split("filename*=UTF-8''")[1]!);
      expect(decoded).not.toMatch(/[/\\\u202a-\u202e\u2066-\u2069\p{Cc}]/u);
      expect(Array.from(decoded).length).toBeLessThanOrEqual(200);
    }
    expect(dispositions.some((value) => value.includes("filename*=UTF-8''facturagnp.step"))).toBe(true);
  });

  it("shows names escaped and shortened, the whole (visible) name in the title", () => {
    expect(detail).not.toContain("<img src=x");
    expect(detail).not.toContain("\u202E");
    const long = downloads().find((file) => file.title.startsWith("&lt;img"));
    expect(long).toBeDefined();
    expect(Array.from(long!.shown.replace(/&lt;/g, "<").replace(/&gt;/g, ">")).length).toBeLessThanOrEqual(60);
    expect(long!.shown).toContain("…");
    expect(long!.shown.endsWith(".step")).toBe(true);
    expect(long!.title).toContain("plano-de-la-ménsula-plano-de-la-ménsula-");
    // Stored clipped to 255 characters, its extension kept.
    expect(long!.title.endsWith("ménsula-pl.step")).toBe(true);
    expect(downloads().map((file) => file.shown)).toContain("facturagnp.step");
  });
});

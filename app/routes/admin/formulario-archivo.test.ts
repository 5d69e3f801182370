import { randomUUID } from "node:crypto";
import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";

// The file and CSV routes end to end below the HTTP server: real sessions (better-auth), real
// database, real files on disk. A guest or a customer never gets a file; staff get it as a download.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("admin-file-route"));

// The test seeds its rows straight into the database (no feature creates them without an upload).
// eslint-disable-next-line no-restricted-imports
import { getDb } from "~/db/client.server";
import { getFileStore } from "~/services/files/file-store.server";
// eslint-disable-next-line no-restricted-imports
import { solicitudFiles, solicitudes } from "~/db/schema/solicitudes";
import { clientIpContext } from "~/lib/request-context";
import { registeredCustomer, signedInStaffCookie } from "../../../tests/support/auth-requests";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { loader as csvLoader } from "./formularios-csv";
import { loader as fileLoader } from "./formulario-archivo";

let staffCookie = "";
let customerCookie = "";
let solicitudId = "";
let otherSolicitudId = "";
let fileId = "";
const CONTENT = "ISO-10303-21;\nHEADER;\nENDSEC;\n";

useTestFileDatabase(dataDir, async () => {
  const email = `personal-${process.pid}@forja.mx`;
  staffCookie = await signedInStaffCookie(email);
  customerCookie = (await registeredCustomer("Cliente Curioso", `cliente-${process.pid}@ejemplo.mx`)).cookie;

  const [owner, other] = await getDb()
    .insert(solicitudes)
    .values(
      [1, 2].map((n) => ({
        number: `SOL-2026-900${n}`,
        type: "cotizacion" as const,
        name: n === 1 ? "=Ana" : "Beto",
        email: `persona${n}@ejemplo.mx`,
        privacyAcceptedAt: new Date(),
        formToken: `route-${process.pid}-${n}`,
      })),
    )
    .returning();
  solicitudId = owner.id;
  otherSolicitudId = other.id;
  const storagePath = `2026/03/${randomUUID()}`;
  await getFileStore().putBytes(storagePath, Buffer.from(CONTENT));
  const [file] = await getDb()
    .insert(solicitudFiles)
    .values({ solicitudId, originalName: "Ménsula <script>.step", storagePath, kind: "step", mimeType: "model/step", size: CONTENT.length, sha256: "0" })
    .returning();
  fileId = file.id;
});

function args(url: string, cookie: string | undefined, params: Record<string, string> = {}) {
  const context = new RouterContextProvider();
  context.set(clientIpContext, "127.0.0.1");
  const request = new Request(`http://localhost${url}`, { headers: cookie ? { cookie } : {} });
  return { request, context, params } as never;
}

async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected the loader to throw");
}

describe("file route", () => {
  const url = () => `/admin/formularios/${solicitudId}/archivos/${fileId}`;

  it("sends a guest and a customer to the staff sign-in, never the file", async () => {
    for (const cookie of [undefined, customerCookie]) {
      const response = (await thrown(() => fileLoader(args(url(), cookie, { id: solicitudId, fileId })))) as Response;
      expect(response).toBeInstanceOf(Response);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toMatch(/^\/admin\/login\?redirectTo=/);
    }
  });

  it("gives staff the file as a private, uncached download with the original name", async () => {
    const response = (await fileLoader(args(url(), staffCookie, { id: solicitudId, fileId }))) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("model/step");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="Mensula <script>.step"; filename*=UTF-8''M%C3%A9nsula%20%3Cscript%3E.step`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("content-length")).toBe(String(CONTENT.length));
    expect(await response.text()).toBe(CONTENT);
  });

  it("answers 404 to staff for a file asked through another solicitud or a malformed id", async () => {
    for (const params of [
      { id: otherSolicitudId, fileId },
      { id: solicitudId, fileId: randomUUID() },
      { id: "nada", fileId },
    ]) {
      const error = (await thrown(() => fileLoader(args(url(), staffCookie, params)))) as { init?: { status?: number } };
      expect(error.init?.status).toBe(404);
    }
  });
});

describe("CSV route", () => {
  it("refuses a customer and streams the filtered CSV to staff", async () => {
    const refused = (await thrown(() => csvLoader(args("/admin/formularios/exportar.csv", customerCookie)))) as Response;
    expect(refused.status).toBe(302);

    const response = (await csvLoader(args("/admin/formularios/exportar.csv?q=9001", staffCookie))) as Response;
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="solicitudes-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split("\r\n");
    expect(lines[0]).toMatch(/^Número,Tipo,/);
    expect(lines[1]).toMatch(/^SOL-2026-9001,Solicitud de cotización,.*,'=Ana,/);
    expect(lines.slice(2)).toEqual([""]);
  });
});

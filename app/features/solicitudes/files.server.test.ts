import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

// Downloads of a solicitud's files: only through their solicitud, streamed from the file store.
// Integration test on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL); rows are
// inserted directly with Drizzle, files written to the store the database uses (a temporary
// DATA_DIR, or PostgreSQL).

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("solicitudes-files"));

import { getDb } from "~/db/client.server";
import { solicitudFiles } from "~/db/schema/solicitudes";
import { getFileStore } from "~/services/files/file-store.server";
import { getSolicitudFile } from "./files.server";
// The download name and headers are tested with their one implementation (services/files/serve-headers.server.test.ts).
import { insertSolicitudes as insert, readAll, useSolicitudTestDatabase } from "../../../tests/support/solicitud-requests";

useSolicitudTestDatabase(dataDir);

describe("getSolicitudFile", () => {
  async function storedFile(solicitudId: string, content: string, originalName = "pieza.step") {
    const storagePath = `2026/03/${randomUUID()}`;
    await getFileStore().putBytes(storagePath, Buffer.from(content));
    const [file] = await getDb()
      .insert(solicitudFiles)
      .values({ solicitudId, originalName, storagePath, kind: "step", mimeType: "model/step", size: Buffer.byteLength(content), sha256: "0" })
      .returning();
    return file;
  }

  it("streams a file of the solicitud it belongs to", async () => {
    const [row] = await insert({});
    const content = "ISO-10303-21;\nHEADER;\n".repeat(10_000); // several chunks
    const file = await storedFile(row.id, content, "soporte motor.step");
    const download = await getSolicitudFile({ solicitudId: row.id, fileId: file.id });
    expect(download).toMatchObject({ id: file.id, originalName: "soporte motor.step", mimeType: "model/step", size: Buffer.byteLength(content) });
    expect((await readAll(download!.body)).text).toBe(content);
  });

  it("never returns a file through another solicitud, an unknown id or a malformed one", async () => {
    const [owner, other] = await insert({}, {});
    const file = await storedFile(owner.id, "ISO-10303-21;");
    expect(await getSolicitudFile({ solicitudId: other.id, fileId: file.id })).toBeNull();
    expect(await getSolicitudFile({ solicitudId: owner.id, fileId: randomUUID() })).toBeNull();
    expect(await getSolicitudFile({ solicitudId: owner.id, fileId: "../../auth-secret" })).toBeNull();
    expect(await getSolicitudFile({ solicitudId: "x", fileId: file.id })).toBeNull();
  });

  it("returns null (and logs) when the row exists but the file is gone from the store", async () => {
    const [row] = await insert({});
    const file = await storedFile(row.id, "ISO-10303-21;");
    await getFileStore().remove([file.storagePath]);
    expect(await getSolicitudFile({ solicitudId: row.id, fileId: file.id })).toBeNull();
  });
});

import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { solicitudFiles } from "~/db/schema/solicitudes";
import { logger } from "~/lib/logger.server";
import { getFileStore } from "~/services/files/file-store.server";
import { isSolicitudId } from "./ids";

// Downloads of the files attached to a solicitud: streamed from the file store in chunks, only
// through the solicitud they belong to.

export interface SolicitudFileDownload {
  id: string;
  originalName: string;
  mimeType: string;
  size: number;
  body: ReadableStream<Uint8Array>;
}

/** A file of this solicitud (never of another one), streamed from the file store; null when there is none. */
export async function getSolicitudFile(input: { solicitudId: string; fileId: string }): Promise<SolicitudFileDownload | null> {
  const { solicitudId, fileId } = input;
  if (!isSolicitudId(solicitudId) || !isSolicitudId(fileId)) return null;
  const [file] = await getDb()
    .select({ id: solicitudFiles.id, originalName: solicitudFiles.originalName, mimeType: solicitudFiles.mimeType, storagePath: solicitudFiles.storagePath })
    .from(solicitudFiles)
    .where(and(eq(solicitudFiles.id, fileId), eq(solicitudFiles.solicitudId, solicitudId)))
    .limit(1);
  if (!file) return null;
  const stored = await getFileStore().open(file.storagePath);
  if (!stored) {
    logger.error({ fileId, solicitudId }, "solicitud file missing from the file store");
    return null;
  }
  const { size, body } = stored;
  return { id: file.id, originalName: file.originalName, mimeType: safeMimeType(file.mimeType), size, body };
}

function safeMimeType(value: string): string {
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i.test(value) ? value : "application/octet-stream";
}

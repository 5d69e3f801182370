import type { RecordFileSource } from "~/services/files/record-files.server";
import { getSolicitudFile } from "./files.server";
import { solicitudesCollection } from "./record-collection.server";

// The files of `solicitudes` for the files API (docs/decisions/0016): `archivos` names each
// attachment `<file id>_<original name, sanitized>` (record-collection.server.ts). Protected: only
// with a file token of an account the solicitud's view rule lets see it (staff, its owner), and
// only through the solicitud it belongs to. No thumbs: drawings and models are served as stored.

const FILE_NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_(.+)$/i;

/** How `archivos` spells a stored name (the same rule as the SQL there: every other run becomes "_"). */
const sanitized = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "_");

export const solicitudesFiles: RecordFileSource = {
  collection: solicitudesCollection,
  fields: ["archivos"],
  protected: true,
  async open({ record, fileName }) {
    const match = FILE_NAME.exec(fileName);
    if (!match) return null;
    const file = await getSolicitudFile({ solicitudId: record.id, fileId: match[1]!.toLowerCase() });
    if (!file) return null;
    if (`${file.id}_${sanitized(file.originalName)}` !== fileName) {
      await file.body.cancel();
      return null;
    }
    return { name: fileName, contentType: file.mimeType, size: file.size, body: file.body };
  },
};

import type { RecordFileSource } from "~/services/files/record-files.server";
import { getQuotePdf } from "./quote-pdf.server";
import { cotizacionesCollection } from "./record-collections.server";

// The files of `cotizaciones` for the files API (docs/decisions/0016): `pdf` names the quote as a
// PDF, `<número>.pdf`. Protected: only with a file token of an account the quote's view rule lets
// see it. The PDF is the one /quotes/{id}/pdf gives the same account (the owner the revision they
// were sent, staff the newest one), made when it is asked for: it is never stored.

export const cotizacionesFiles: RecordFileSource = {
  collection: cotizacionesCollection,
  fields: ["pdf"],
  protected: true,
  async open({ record, auth }) {
    if (!auth) return null;
    const pdf = await getQuotePdf(record.id, { userId: auth.id, staff: auth.collection === "_superusers" });
    if (!pdf) return null;
    return { name: String(record.pdf), contentType: "application/pdf", size: pdf.body.byteLength, body: new Uint8Array(pdf.body) };
  },
};

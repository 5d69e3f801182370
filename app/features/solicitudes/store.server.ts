import { transactionOnDisk } from "~/db/group-commit.server";
import { clipFileName } from "~/lib/format";
import { solicitudEvents, solicitudFiles, solicitudes, type SolicitudEstimate } from "~/db/schema/solicitudes";
import { MIME_BY_KIND, type FileKind } from "~/services/files/detect-type.server";
import type { UploadedFileByCrc } from "~/services/files/multipart.server";
import { activeFileStore, writesWithTransaction } from "~/services/files/file-store.server";
import { newStoragePath } from "~/services/files/storage.server";
import { nextRecordNumber } from "~/services/numbering/next-number.server";
import type { SolicitudSubmission } from "./create.server";
import { NDA_VERSION } from "./forms";
import { enqueueSolicitudEmails } from "./solicitud-emails.server";
import { getSiteFacts } from "~/features/site/index.server";

// One transaction for a new solicitud: its number, the row, its files' rows, the "creado" event and
// the two emails in the outbox. The files reach the store before the commit: in the same
// transaction when the store writes with it (PostgreSQL), else just before it opens (disk, S3; see
// storeSolicitud), and they are removed again if it fails.

export interface CheckedFile extends UploadedFileByCrc {
  id: string;
  kind: FileKind;
}

export interface StoreInput {
  submission: SolicitudSubmission;
  files: CheckedFile[];
  estimates: SolicitudEstimate[];
  token: string;
  fingerprint: string;
  ip: string | null;
  userAgent: string | null;
  userId: string | null;
}

export async function storeSolicitud(input: StoreInput): Promise<{ id: string; number: string }> {
  const { submission, files, estimates, token, fingerprint, userId } = input;
  const { type, value } = submission;
  const now = new Date();
  const moved: string[] = [];
  // The emails' business facts, read before the transaction (on PGlite a read outside a running
  // transaction waits for it).
  const facts = await getSiteFacts();
  // The same for the file store in effect (it reads the settings: disk, database or S3).
  const store = await activeFileStore();
  const withTransaction = writesWithTransaction(store);
  const placed = files.map((file) => ({ file, storagePath: newStoragePath(now) }));
  try {
    // On disk or in S3 the files are stored before the transaction opens: on PGlite a transaction
    // holds the one connection, and a 5 MB fsync (or an upload to S3) inside it made every other
    // request wait for the database meanwhile. A crash before the commit leaves them to the orphan
    // sweep (services/files/orphans.server.ts).
    if (!withTransaction) {
      for (const { file, storagePath } of placed) {
        await store.putFile(storagePath, file.tmpPath);
        moved.push(storagePath);
      }
    }
    // Answered once on disk; on PGlite the commits of a burst of requests share their WAL flushes (0082).
    return await transactionOnDisk(async (tx) => {
      const number = await nextRecordNumber(tx, "SOL", now);
      const quote = submission.type === "cotizacion" ? submission.value : null;
      const contact = submission.type === "contacto" ? submission.value : null;
      // The row as stored, which the e-mails repeat as they are.
      const stored = {
        number,
        type,
        userId,
        name: value.name,
        email: value.email,
        phone: value.phone || null,
        company: quote?.company || null,
        city: quote?.city || null,
        industry: quote?.industry ?? null,
        service: quote?.service ?? null,
        description: quote?.description ?? null,
        quantity: quote?.quantity ?? null,
        extraQuantities: quote?.extraQuantities ?? [],
        requiredBy: quote?.requiredBy || null,
        material: quote?.material || null,
        finish: quote?.finish || null,
        tolerance: quote?.tolerance ?? null,
        threads: quote?.threads ? quote.threads === "si" : null,
        certificates: quote?.certificates ?? [],
        subject: contact?.subject ?? null,
        message: contact?.message ?? null,
        ndaVersion: quote?.nda ? NDA_VERSION : null,
        ndaAcceptedAt: quote?.nda ? now : null,
        privacyAcceptedAt: now,
        estimates,
        formToken: token,
        fingerprint,
        ip: input.ip,
        userAgent: input.userAgent,
        createdAt: now,
        updatedAt: now,
      };
      const [row] = await tx.insert(solicitudes).values(stored).returning({ id: solicitudes.id });
      const id = row!.id;
      for (const { file, storagePath } of placed) {
        await tx.insert(solicitudFiles).values({
          id: file.id,
          solicitudId: id,
          // Kept as sent (it is data), clipped with its extension kept (docs/decisions/0036).
          originalName: clipFileName(file.name, 255),
          storagePath,
          kind: file.kind,
          mimeType: MIME_BY_KIND[file.kind],
          size: file.size,
          // Taken by the geometry job once the burst is over (0080).
          sha256: null,
        });
        if (withTransaction) {
          await store.putFile(storagePath, file.tmpPath, tx);
          moved.push(storagePath);
        }
      }
      await tx.insert(solicitudEvents).values({ solicitudId: id, kind: "creado", toStatus: "nuevo", actorName: value.name });
      await enqueueSolicitudEmails(tx, facts, { ...stored, id, files: files.map((file) => ({ name: file.name, size: file.size })) });
      return { id, number };
    });
  } catch (error) {
    await store.remove(moved);
    throw error;
  }
}

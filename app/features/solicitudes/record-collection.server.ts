import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import type { RecordFieldMap } from "~/db/record-filter.server";
import { solicitudes } from "~/db/schema/solicitudes";
import { notFoundResult, ok, type Result } from "~/lib/result";
import { staffOrCustomerRule, type RecordAuth, type RecordCollection, type RecordData, type RecordWriteInput, type RecordWriter } from "~/services/records/collection.server";
import { asFieldFailure, boolField, FIELD_CODES, hasField, isStaffWriter, recordFieldFailure, refuseWrite, textField } from "~/services/records/writes.server";
import { addSolicitudNote, changeSolicitudStatus, markSolicitudRead } from "./commands.server";
import { isSolicitudStatus, SOLICITUD_STATUS_ORDER } from "./states";
import { tableCollection } from "~/services/records/table-collection.server";
import { isSolicitudId } from "./ids";
import { solicitudVisibleToCustomer } from "./visibility.server";

// Solicitudes as the record API's `solicitudes` collection (docs/decisions/0014; writes: 0015): the
// fields a filter or sort may name, how a solicitud reads as a record, and who sees which —
// staff all of them, a customer their own (visibility.server.ts), a guest none (an empty list and
// a 404 for a record: PocketBase applies a rule as a filter). What the form stored about the
// sender's connection (IP, user agent), its one-time token and fingerprint are not fields: no
// filter or sort can reach them. Empty values read as PocketBase's: "" for text, 0 for numbers.

/**
 * The attached files as names `<file id>_<original name>`, oldest first (the detail page's order):
 * unique, so the files API can find the file from the name, and safe in a URL path, as PocketBase
 * sanitizes its file names (every run of characters other than `A-Z a-z 0-9 . _ -` becomes `_`).
 * Names spelled out: drizzle leaves columns unqualified in a one-table query, and a bare "id"
 * would mean the file's.
 */
const fileNames = sql<string[]>`(select coalesce(jsonb_agg(f.id::text || '_' || regexp_replace(f.original_name, '[^A-Za-z0-9._-]+', '_', 'g') order by f.created_at, f.original_name), '[]'::jsonb) from solicitud_files as f where f.solicitud_id = "solicitudes"."id")`;

/** Allow-list for `filter` and `sort`: API name → column or expression, with its type. */
export const SOLICITUDES_FIELDS: RecordFieldMap = {
  id: { column: sql`${solicitudes.id}::text`, type: "text" },
  created: { column: solicitudes.createdAt, type: "date" },
  updated: { column: solicitudes.updatedAt, type: "date" },
  numero: { column: solicitudes.number, type: "text" },
  tipo: { column: solicitudes.type, type: "text" },
  estado: { column: solicitudes.status, type: "text" },
  nombre: { column: solicitudes.name, type: "text" },
  correo: { column: solicitudes.email, type: "text" },
  empresa: { column: solicitudes.company, type: "text" },
  industria: { column: solicitudes.industry, type: "text" },
  servicio: { column: solicitudes.service, type: "text" },
  cantidad: { column: solicitudes.quantity, type: "number" },
  leida: { column: sql`(${solicitudes.readAt} is not null)`, type: "bool" },
  archivos: { column: fileNames, type: "json-array" },
};

const recordColumns = {
  id: solicitudes.id,
  created: solicitudes.createdAt,
  updated: solicitudes.updatedAt,
  numero: solicitudes.number,
  tipo: solicitudes.type,
  estado: solicitudes.status,
  nombre: solicitudes.name,
  correo: solicitudes.email,
  empresa: solicitudes.company,
  industria: solicitudes.industry,
  servicio: solicitudes.service,
  cantidad: solicitudes.quantity,
  readAt: solicitudes.readAt,
  archivos: fileNames,
};

const selectRecords = () => getDb().select(recordColumns).from(solicitudes);
type SolicitudRecordRow = Awaited<ReturnType<typeof selectRecords>>[number];

function toRecord({ readAt, empresa, industria, servicio, cantidad, archivos, ...row }: SolicitudRecordRow): RecordData {
  return {
    ...row,
    empresa: empresa ?? "",
    industria: industria ?? "",
    servicio: servicio ?? "",
    cantidad: cantidad ?? 0,
    leida: readAt !== null,
    archivos: archivos ?? [],
  };
}

/** The rule: staff see every solicitud, a customer their own, a guest none. */
const visibleTo = (auth: RecordAuth) => staffOrCustomerRule(auth, solicitudVisibleToCustomer);

const readCollection = tableCollection<SolicitudRecordRow>({
  id: "pbc_solicitudes",
  name: "solicitudes",
  fields: SOLICITUDES_FIELDS,
  defaultSort: "-created",
  table: solicitudes,
  idColumn: solicitudes.id,
  isId: isSolicitudId,
  select: () => selectRecords().$dynamic(),
  rule: visibleTo,
  toRecord: toRecord,
});

const STAFF: RecordAuth = { collection: "_superusers", id: "" };

/**
 * Writes (docs/decisions/0015): staff update a solicitud as its detail page does, through the same
 * commands — `estado` (moved as the table in states.ts allows, with its event), `nota` (a note
 * added to the history; write-only, as on the page) and `leida`. Any other field is ignored, as
 * PocketBase ignores what it does not load. Nobody creates (that is /cotiza's form) or deletes one.
 */
async function updateSolicitud(id: string, input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>> {
  if (!isStaffWriter(writer)) return refuseWrite(writer);
  const current = await readCollection.view(id, STAFF);
  if (!current) return notFoundResult();
  const actor = { id: writer.auth.id, name: writer.name };

  if (hasField(input, "nota")) {
    const note = textField(input, "nota") ?? "";
    if (note.trim() !== "") {
      const noted = await addSolicitudNote({ id, note, actor });
      if (!noted.ok) return asFieldFailure(noted, "nota");
    }
  }
  const leida = boolField(input, "leida");
  if (leida === null) return recordFieldFailure({ leida: { code: FIELD_CODES.invalid, message: "Indique verdadero o falso." } });
  if (leida !== undefined) {
    const marked = await markSolicitudRead({ id, read: leida, actor });
    if (!marked.ok) return marked;
  }
  const estado = textField(input, "estado");
  if (hasField(input, "estado") && estado !== current.estado) {
    if (estado === undefined || !isSolicitudStatus(estado)) {
      return recordFieldFailure({ estado: { code: FIELD_CODES.invalid, message: `Use uno de estos estados: ${SOLICITUD_STATUS_ORDER.join(", ")}.` } });
    }
    const moved = await changeSolicitudStatus({ id, to: estado, actor });
    if (!moved.ok) return asFieldFailure(moved, "estado", FIELD_CODES.state);
  }
  // Several commands, one transaction (the engine's): a refused move undoes the note and the mark.
  return ok(id);
}

export const solicitudesCollection: RecordCollection = { ...readCollection, update: updateSolicitud };

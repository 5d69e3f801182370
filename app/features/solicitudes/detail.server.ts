import { asc, eq, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { solicitudEvents, solicitudFiles, solicitudes, type SolicitudEstimate, type SolicitudFileGeometry, type SolicitudFileGeometryStatus } from "~/db/schema/solicitudes";
import { markSolicitudRead, type StaffActor } from "./commands.server";
import { isSolicitudId } from "./ids";
import { allowedNextStatuses, type SolicitudStatus, type SolicitudType } from "./states";
import type { SolicitudProjectFields } from "./types";

// One solicitud as the staff read it: every field, its files, estimates and history, plus the
// moves the state table allows from its status (the page offers exactly those).

export type SolicitudEventKind = "estado" | "nota" | "leido" | "no_leido" | "creado";

export interface SolicitudDetail extends SolicitudProjectFields {
  id: string;
  number: string;
  type: SolicitudType;
  status: SolicitudStatus;
  nextStatuses: readonly SolicitudStatus[];
  name: string;
  company: string | null;
  email: string;
  phone: string | null;
  city: string | null;
  subject: string | null;
  message: string | null;
  ndaVersion: string | null;
  ndaAcceptedAt: Date | null;
  privacyAcceptedAt: Date;
  estimates: SolicitudEstimate[];
  ip: string | null;
  userAgent: string | null;
  readAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  account: { id: string; name: string; email: string } | null;
  files: {
    id: string;
    originalName: string;
    kind: string;
    mimeType: string;
    size: number;
    sha256: string | null;
    createdAt: Date;
    /** What the server measured (see geometry.server.ts), or why it did not. */
    geometryStatus: SolicitudFileGeometryStatus;
    geometry: SolicitudFileGeometry | null;
    geometryReason: string | null;
  }[];
  events: {
    id: string;
    kind: SolicitudEventKind;
    fromStatus: string | null;
    toStatus: string | null;
    note: string | null;
    actorName: string | null;
    createdAt: Date;
  }[];
}

export async function getSolicitudDetail(id: string): Promise<SolicitudDetail | null> {
  if (!isSolicitudId(id)) return null;
  const db = getDb();
  const [row] = await db
    .select({ solicitud: solicitudes, account: { id: user.id, name: user.name, email: user.email } })
    .from(solicitudes)
    .leftJoin(user, eq(user.id, solicitudes.userId))
    .where(eq(solicitudes.id, id))
    .limit(1);
  if (!row) return null;
  const [files, events] = await Promise.all([
    db
      .select({
        id: solicitudFiles.id,
        originalName: solicitudFiles.originalName,
        kind: solicitudFiles.kind,
        mimeType: solicitudFiles.mimeType,
        size: solicitudFiles.size,
        sha256: solicitudFiles.sha256,
        createdAt: solicitudFiles.createdAt,
        geometryStatus: solicitudFiles.geometryStatus,
        geometry: solicitudFiles.geometry,
        geometryReason: solicitudFiles.geometryReason,
      })
      .from(solicitudFiles)
      .where(eq(solicitudFiles.solicitudId, id))
      .orderBy(asc(solicitudFiles.createdAt), asc(solicitudFiles.originalName)),
    db
      .select({
        id: solicitudEvents.id,
        kind: solicitudEvents.kind,
        fromStatus: solicitudEvents.fromStatus,
        toStatus: solicitudEvents.toStatus,
        note: solicitudEvents.note,
        // The name at the time of the event; the account's current name if none was kept.
        actorName: sql<string | null>`coalesce(${solicitudEvents.actorName}, ${user.name})`,
        createdAt: solicitudEvents.createdAt,
      })
      .from(solicitudEvents)
      .leftJoin(user, eq(user.id, solicitudEvents.actorId))
      .where(eq(solicitudEvents.solicitudId, id))
      .orderBy(asc(solicitudEvents.createdAt), asc(solicitudEvents.id)),
  ]);
  const s = row.solicitud;
  return {
    id: s.id,
    number: s.number,
    type: s.type,
    status: s.status,
    nextStatuses: allowedNextStatuses(s.status),
    name: s.name,
    company: s.company,
    email: s.email,
    phone: s.phone,
    city: s.city,
    industry: s.industry,
    service: s.service,
    description: s.description,
    quantity: s.quantity,
    extraQuantities: s.extraQuantities,
    requiredBy: s.requiredBy,
    material: s.material,
    finish: s.finish,
    tolerance: s.tolerance,
    threads: s.threads,
    certificates: s.certificates,
    subject: s.subject,
    message: s.message,
    ndaVersion: s.ndaVersion,
    ndaAcceptedAt: s.ndaAcceptedAt,
    privacyAcceptedAt: s.privacyAcceptedAt,
    estimates: s.estimates,
    ip: s.ip,
    userAgent: s.userAgent,
    readAt: s.readAt,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    account: row.account?.id ? row.account : null,
    files,
    events,
  };
}

/** The detail page: opening it marks the solicitud as read (once, with an event). */
export async function openSolicitud(input: { id: string; actor: StaffActor }): Promise<SolicitudDetail | null> {
  if (!isSolicitudId(input.id)) return null;
  const marked = await markSolicitudRead({ id: input.id, read: true, actor: input.actor });
  if (!marked.ok) return null;
  return getSolicitudDetail(input.id);
}

/** What a quote copies from the request it answers. */
export async function getSolicitudForQuote(id: string) {
  if (!isSolicitudId(id)) return null;
  const [row] = await getDb()
    .select({
      id: solicitudes.id,
      number: solicitudes.number,
      name: solicitudes.name,
      email: solicitudes.email,
      company: solicitudes.company,
      userId: solicitudes.userId,
      description: solicitudes.description,
      quantity: solicitudes.quantity,
    })
    .from(solicitudes)
    .where(eq(solicitudes.id, id))
    .limit(1);
  return row ?? null;
}

import { sql } from "drizzle-orm";
import { bigint, boolean, date, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";

export type SolicitudType = "cotizacion" | "contacto";
export type SolicitudStatus = "nuevo" | "en_revision" | "cotizado" | "cerrado" | "descartado";

export interface SolicitudEstimate {
  fileId: string;
  fileName: string;
  volumeMm3: number;
  bbox: { x: number; y: number; z: number };
  triangles: number;
  closed: boolean;
  /** Indicative range in centavos, IVA included, when the chosen service has a price rule. */
  price?: { service: string; minCentavos: number; maxCentavos: number };
}

/** Server-side geometry of an attachment: waiting, measured, or why there are no figures. */
export type SolicitudFileGeometryStatus = "pending" | "computing" | "ok" | "unreadable" | "over-budget" | "not-cad";

/** What the server measured from a stored CAD attachment (mm, mm², mm³; after the declared unit). */
export interface SolicitudFileGeometry {
  volumeMm3: number;
  areaMm2: number;
  bbox: { x: number; y: number; z: number };
  triangles: number;
  closed: boolean;
  /** Length unit the file declares (STEP/IGES), null when none or STL. */
  unit: string | null;
  /** Wall-clock time of the computation, ms. */
  elapsedMs: number;
}

/** Quote requests (/cotiza) and contact messages (/contact). */
export const solicitudes = pgTable(
  "solicitudes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    number: text("number").notNull().unique(),
    type: text("type").$type<SolicitudType>().notNull(),
    status: text("status").$type<SolicitudStatus>().notNull().default("nuevo"),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    company: text("company"),
    email: text("email").notNull(),
    phone: text("phone"),
    city: text("city"),
    industry: text("industry"),
    service: text("service"),
    description: text("description"),
    quantity: integer("quantity"),
    extraQuantities: integer("extra_quantities").array().notNull().default(sql`'{}'::integer[]`),
    requiredBy: date("required_by"),
    material: text("material"),
    finish: text("finish"),
    tolerance: text("tolerance"),
    threads: boolean("threads"),
    certificates: text("certificates").array().notNull().default(sql`'{}'::text[]`),
    subject: text("subject"),
    message: text("message"),
    ndaVersion: text("nda_version"),
    ndaAcceptedAt: timestamp("nda_accepted_at", { withTimezone: true }),
    privacyAcceptedAt: timestamp("privacy_accepted_at", { withTimezone: true }).notNull(),
    estimates: jsonb("estimates").$type<SolicitudEstimate[]>().notNull().default(sql`'[]'::jsonb`),
    /** One-time form token: a second post of the same form finds the first solicitud. */
    formToken: text("form_token").notNull().unique(),
    /**
     * sha256 of what was sent (type, every value, each file's name and sha256): the same request sent
     * again soon with a new token (Back, then the browser reloads the form) finds the first one.
     */
    fingerprint: text("fingerprint"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("solicitudes_created_at_idx").on(table.createdAt.desc(), table.id),
    index("solicitudes_status_created_idx").on(table.status, table.createdAt.desc()),
    index("solicitudes_type_created_idx").on(table.type, table.createdAt.desc()),
    index("solicitudes_email_idx").on(table.email),
    index("solicitudes_user_idx").on(table.userId),
    index("solicitudes_fingerprint_idx").on(table.fingerprint, table.createdAt.desc()),
  ],
);

/** Files attached to a solicitud, stored under DATA_DIR/uploads with server-generated names. */
export const solicitudFiles = pgTable(
  "solicitud_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    solicitudId: uuid("solicitud_id")
      .notNull()
      .references(() => solicitudes.id, { onDelete: "cascade" }),
    originalName: text("original_name").notNull(),
    storagePath: text("storage_path").notNull().unique(),
    /** Detected by content: step, iges, stl, 3mf, obj, sldprt, dxf, dwg, pdf, png, jpg. */
    kind: text("kind").notNull(),
    mimeType: text("mime_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    /**
     * Of the stored bytes; null until the geometry job has read the file (docs/decisions/0080): while
     * a request is sent only a CRC-32 is taken, to tell its files apart.
     */
    sha256: text("sha256"),
    /** Every file starts pending; the geometry job measures CAD files and marks the rest not-cad. */
    geometryStatus: text("geometry_status").$type<SolicitudFileGeometryStatus>().notNull().default("pending"),
    geometry: jsonb("geometry").$type<SolicitudFileGeometry>(),
    /** Spanish, for staff: why there are no figures. */
    geometryReason: text("geometry_reason"),
    geometryAttempts: integer("geometry_attempts").notNull().default(0),
    /** When the job took the file (a claim older than a few minutes was lost to a crash). */
    geometryClaimedAt: timestamp("geometry_claimed_at", { withTimezone: true }),
    geometryComputedAt: timestamp("geometry_computed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("solicitud_files_solicitud_idx").on(table.solicitudId),
    index("solicitud_files_geometry_pending_idx").on(table.createdAt).where(sql`geometry_status in ('pending', 'computing')`),
  ],
);

/** History of a solicitud: status changes, internal notes, read/unread, who and when. */
export const solicitudEvents = pgTable(
  "solicitud_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    solicitudId: uuid("solicitud_id")
      .notNull()
      .references(() => solicitudes.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"estado" | "nota" | "leido" | "no_leido" | "creado">().notNull(),
    fromStatus: text("from_status"),
    toStatus: text("to_status"),
    note: text("note"),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    actorName: text("actor_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("solicitud_events_solicitud_idx").on(table.solicitudId, table.createdAt)],
);

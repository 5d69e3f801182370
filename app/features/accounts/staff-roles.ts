// Who on the staff may use what (docs/decisions/0040-staff-roles.md). Every staff account signs in
// the same way (the /admin login, the record API's `_superusers`); its role, read from the database
// on every request, decides which areas of the panel and which record collections it may touch.
// This table is the one place that says so: the guards, the sidebar and the record API read it.
// No `.server` suffix: the sidebar and the staff screens show the roles' names in the browser.

export const STAFF_ROLES = ["admin", "editor", "ventas"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The role `npm run admin:create` gives; also the one better-auth's admin endpoints accept. */
export const ADMIN_ROLE: StaffRole = "admin";

export const STAFF_AREAS = [
  "solicitudes",
  "cotizaciones",
  "pedidos",
  "clientes",
  "productos",
  "contenido",
  "ajustes",
  "personal",
  "sistema",
] as const;
export type StaffArea = (typeof STAFF_AREAS)[number];

/** Role → the areas it may use. Products are sales' (prices, stock and what checkout sells). */
export const STAFF_PERMISSIONS: Readonly<Record<StaffRole, readonly StaffArea[]>> = {
  admin: STAFF_AREAS,
  editor: ["contenido"],
  ventas: ["solicitudes", "cotizaciones", "pedidos", "clientes", "productos"],
};

export const STAFF_ROLE_LABELS: Readonly<Record<StaffRole, string>> = {
  admin: "Administración",
  editor: "Edición de contenido",
  ventas: "Ventas",
};

export const STAFF_ROLE_DESCRIPTIONS: Readonly<Record<StaffRole, string>> = {
  admin: "Todo el panel, incluidos el personal y los ajustes del negocio.",
  editor: "Contenido del sitio e imágenes.",
  ventas: "Solicitudes, cotizaciones, pedidos, clientes y productos.",
};

/** A staff account as /admin/personal lists it. */
export type StaffState = "activa" | "invitada" | "desactivada";

export const STAFF_STATE_LABELS: Readonly<Record<StaffState, string>> = {
  activa: "Activa",
  invitada: "Invitación pendiente",
  desactivada: "Desactivada",
};

/** How long an invitation link works. */
export const INVITATION_HOURS = 72;

export function isStaffRole(role: string | null | undefined): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role ?? "");
}

/** Whether an account with `role` may use `area` (false for anyone who is not staff). */
export function staffMayUse(role: string | null | undefined, area: StaffArea): boolean {
  return isStaffRole(role) && STAFF_PERMISSIONS[role].includes(area);
}

/** The areas of `role`, none for an account that is not staff. */
export function staffAreasOf(role: string | null | undefined): readonly StaffArea[] {
  return isStaffRole(role) ? STAFF_PERMISSIONS[role] : [];
}

/**
 * The area each record collection belongs to. `_superusers` is absent on purpose: a staff account
 * only ever sees its own record there, whatever its role. A collection missing here is admin-only
 * for staff (fail closed) until someone names its area.
 */
export const RECORD_COLLECTION_AREAS: Readonly<Record<string, StaffArea>> = {
  solicitudes: "solicitudes",
  cotizaciones: "cotizaciones",
  mensajes: "cotizaciones",
  pedidos: "pedidos",
  users: "clientes",
  productos: "productos",
  ajustes: "ajustes",
  servicios: "contenido",
  industrias: "contenido",
  preguntas: "contenido",
  paginas: "contenido",
  inicio: "contenido",
  medios: "contenido",
  redirecciones: "contenido",
};

/** The collections every staff role reads as itself, with no area check. */
export const UNGATED_RECORD_COLLECTIONS: readonly string[] = ["_superusers"];

export function recordCollectionArea(name: string): StaffArea {
  return RECORD_COLLECTION_AREAS[name] ?? "sistema";
}

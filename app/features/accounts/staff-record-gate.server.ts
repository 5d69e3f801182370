import { inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { forbiddenResult } from "~/lib/result";
import type { RecordAuth, RecordCollection, RecordEventAccess, RecordWriter } from "~/services/records/collection.server";
import { RECORD_API_MESSAGES } from "~/services/records/records.server";
import { WRITE_MESSAGES } from "~/services/records/writes.server";
import { recordCollectionArea, staffMayUse, UNGATED_RECORD_COLLECTIONS, type StaffArea } from "./staff-roles";

// The staff roles on the record API (docs/decisions/0040). Every staff account signs in to
// `_superusers`, so the collections' own rules see "staff"; this gate, put around each collection
// by the composition root, asks the role first. A staff account whose role lacks the collection's
// area reads it as a guest would (PocketBase's answer to a rule that does not match: an empty list,
// a 404, no realtime event) and may not write (403). The role is read from the database on every
// request, so a role change applies to tokens already handed out.

type StaffAuth = { collection: "_superusers"; id: string };

const isStaffAuth = (auth: RecordAuth): auth is StaffAuth => auth?.collection === "_superusers";

/** The role of each staff account id (absent: no such account). */
async function staffRoles(ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await getDb().select({ id: user.id, role: user.role }).from(user).where(inArray(user.id, unique));
  return new Map(rows.map((row) => [row.id, row.role ?? ""]));
}

/** Whether the staff account `id` may use `area` now. */
export async function staffAccountMayUse(id: string, area: StaffArea): Promise<boolean> {
  return staffMayUse((await staffRoles([id])).get(id), area);
}

/** `auth` itself, or a guest when it is a staff account whose role may not use `area`. */
async function effectiveAuth(auth: RecordAuth, area: StaffArea): Promise<RecordAuth> {
  if (!isStaffAuth(auth)) return auth;
  return (await staffAccountMayUse(auth.id, area)) ? auth : null;
}

async function refusedWriter(writer: RecordWriter, area: StaffArea): Promise<boolean> {
  return writer !== null && isStaffAuth(writer.auth) && !(await staffAccountMayUse(writer.auth.id, area));
}

const refusal = () => forbiddenResult(WRITE_MESSAGES.notAllowed);

function gatedEvents(events: RecordEventAccess, area: StaffArea): RecordEventAccess {
  return {
    read: (id) => events.read(id),
    async whoMayView(target, auths, guest) {
      const roles = await staffRoles(auths.filter(isStaffAuth).map((auth) => auth.id));
      const downgraded = auths.map((auth) => isStaffAuth(auth) && !staffMayUse(roles.get(auth.id), area));
      const kept = auths.filter((_, index) => !downgraded[index]);
      const anyDowngraded = downgraded.includes(true);
      const access = await events.whoMayView(target, kept, guest || anyDowngraded);
      let next = 0;
      return {
        guest: guest && access.guest,
        auths: downgraded.map((isDowngraded) => (isDowngraded ? access.guest : access.auths[next++]!)),
      };
    },
  };
}

/** `collection` behind its area's check for staff (`_superusers` and unknown areas as staff-roles.ts says). */
export function gateStaffRecordCollection(collection: RecordCollection): RecordCollection {
  if (UNGATED_RECORD_COLLECTIONS.includes(collection.name)) return collection;
  const area = recordCollectionArea(collection.name);
  const { create, update, remove, events } = collection;
  return {
    ...collection,
    // A superuser-only collection (ajustes: admins only) answers staff without its area as PocketBase
    // answers anyone but a superuser: 403, not an empty list (docs/decisions/0047).
    refuseRead: async (params, auth) => {
      if (collection.superusersOnly && isStaffAuth(auth) && !(await staffAccountMayUse(auth.id, area))) return forbiddenResult(RECORD_API_MESSAGES.superusersOnly);
      return (await collection.refuseRead?.(params, auth)) ?? null;
    },
    list: async (query) => collection.list({ ...query, auth: await effectiveAuth(query.auth, area) }),
    count: async (query) => collection.count({ ...query, auth: await effectiveAuth(query.auth, area) }),
    view: async (id, auth) => collection.view(id, await effectiveAuth(auth, area)),
    create: create && (async (input, writer) => ((await refusedWriter(writer, area)) ? refusal() : create.call(collection, input, writer))),
    update: update && (async (id, input, writer) => ((await refusedWriter(writer, area)) ? refusal() : update.call(collection, id, input, writer))),
    remove: remove && (async (id, writer) => ((await refusedWriter(writer, area)) ? refusal() : remove.call(collection, id, writer))),
    events: events && gatedEvents(events, area),
  };
}

/** Only a collection's view behind its staff area (the files API asks a record's view rule). */
export function gateStaffRecordView<T extends Pick<RecordCollection, "name" | "view">>(collection: T): T {
  if (UNGATED_RECORD_COLLECTIONS.includes(collection.name)) return collection;
  const area = recordCollectionArea(collection.name);
  return { ...collection, view: async (id: string, auth: RecordAuth) => collection.view(id, await effectiveAuth(auth, area)) };
}

/** Every collection of the record API behind its staff area. */
export function gateStaffRecordCollections(collections: readonly RecordCollection[]): RecordCollection[] {
  return collections.map(gateStaffRecordCollection);
}

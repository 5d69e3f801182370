import { sql } from "drizzle-orm";
import { noteLocalChange } from "~/db/change-feed.server";
import { afterCommit, getDb } from "~/db/client.server";
import { deletedRecords } from "~/db/schema/realtime";
import { REALTIME_CHANNEL } from "~/services/realtime/hub.server";
import type { EntryRow } from "./rows.server";

// Realtime events of the content collections (issue 16 §5, docs/decisions/0037 "Through the record
// API"). The tables behind other record collections announce every write with a trigger
// (migration 0009); content announces only what the public can notice: a publish and the delete
// of a published record, never a draft save, a schedule or a lock heartbeat. Sent with pg_notify
// inside the caller's transaction, so it goes out on commit and never for a rollback, on the same
// channel and in the same form as the triggers ('<collection>:<action>:<id>[:<deleted seq>]').

/** A record's published version changed: `create` the first time it is published, `update` afterwards. */
export async function announcePublished(collection: string, id: string, firstTime: boolean): Promise<void> {
  await getDb().execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${`${collection}:${firstTime ? "create" : "update"}:${id}`})`);
  // Read-your-writes in this process: the next read here sees the publish.
  await afterCommit(() => noteLocalChange("contenido", `contenido:${collection}`));
}

/** A published record was deleted: its last state is kept (as the triggers keep a row) so each subscriber's right to see it can still be checked. */
export async function announceDeleted(row: EntryRow): Promise<void> {
  if (row.published === null) return;
  const [kept] = await getDb()
    .insert(deletedRecords)
    .values({ collection: row.collection, recordId: row.id, row: JSON.parse(JSON.stringify(row)) as unknown })
    .returning({ seq: deletedRecords.seq });
  await getDb().execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${`${row.collection}:delete:${row.id}:${kept!.seq}`})`);
  await afterCommit(() => noteLocalChange("contenido", `contenido:${row.collection}`));
}

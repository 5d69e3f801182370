import type { RecordWriter } from "~/services/records/collection.server";
import { readTokenAuth } from "./record-auth.server";

// Who writes through the record API (docs/decisions/0015): the token's account with the name the
// domain records (events, messages), or a guest. A bad token is a guest, as for reads.
export async function recordWriterOf(request: Request): Promise<RecordWriter> {
  const auth = await readTokenAuth(request);
  return auth ? { auth: { collection: auth.claims.collection, id: auth.claims.id }, name: auth.session.account.name } : null;
}

import type { Route } from "./+types/records";
import { listRecords, recordErrorBody, viewRecord } from "~/services/records/records.server";
import { createRecord, deleteRecord, readWriteBody, updateRecord, withBody, type RecordAnswer } from "~/services/records/writes.server";
import { failureStatus } from "~/lib/result";
import { recordAuthOf } from "./record-auth.server";
import { recordCollections } from "~/services/records/registry.server";
import { recordWriterOf } from "./record-writer.server";

// GET /api/collections/{collection}/records[/{id}] — PocketBase's record API, read by the official
// `pocketbase` SDK unchanged (docs/decisions/0014). Who asks comes from the `Authorization` token
// (record-auth.server.ts); without a valid one, a guest.

// The collections are the ones the composition root registered (app/hooks.server.ts): each is
// defined by the feature that owns its data.

export async function loader({ request, params }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const auth = await recordAuthOf(request);
  const result = params.id === undefined ? await listRecords(recordCollections(), params.collection, query, auth) : await viewRecord(recordCollections(), params.collection, params.id, query, auth);
  const headers = { "Cache-Control": "no-store" };
  if (!result.ok) {
    const status = failureStatus(result);
    return Response.json(recordErrorBody(result, status), { status, headers });
  }
  return Response.json(result.value, { headers });
}

// POST …/records (create), PATCH …/records/{id} (update), DELETE …/records/{id} (delete → 204):
// through each collection's domain commands, in one transaction (docs/decisions/0015).
export async function action({ request, params }: Route.ActionArgs) {
  const query = new URL(request.url).searchParams;
  const writer = await recordWriterOf(request);
  const method = request.method.toUpperCase();
  let answer: RecordAnswer;
  if (method === "DELETE" && params.id !== undefined) answer = await deleteRecord(recordCollections(), params.collection, params.id, writer);
  else if ((method === "POST" && params.id === undefined) || (method === "PATCH" && params.id !== undefined)) {
    const body = await readWriteBody(request);
    if (!body.ok) answer = body.answer;
    else
      answer = await withBody(body, (input) =>
        params.id === undefined ? createRecord(recordCollections(), params.collection, input, writer, query) : updateRecord(recordCollections(), params.collection, params.id, input, writer, query),
      );
  } else answer = { status: 405, body: { status: 405, message: "Method Not Allowed.", data: {} } };
  const headers = { "Cache-Control": "no-store" };
  return answer.status === 204 ? new Response(null, { status: 204, headers }) : Response.json(answer.body, { status: answer.status, headers });
}

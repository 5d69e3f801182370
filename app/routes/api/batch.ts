import type { Route } from "./+types/batch";
import { readBatch, runBatch } from "~/services/records/batch.server";
import { recordCollections } from "~/services/records/registry.server";
import { recordWriterOf } from "./record-writer.server";

// POST /api/batch — PocketBase's batch of record writes in one transaction, all or nothing, as the
// official SDK's `pb.createBatch()` sends it (docs/decisions/0015).

export async function action({ request }: Route.ActionArgs) {
  const headers = { "Cache-Control": "no-store" };
  if (request.method.toUpperCase() !== "POST") return Response.json({ status: 405, message: "Method Not Allowed.", data: {} }, { status: 405, headers });
  const writer = await recordWriterOf(request);
  const batch = await readBatch(request);
  if (!batch.ok) return Response.json(batch.answer.body, { status: batch.answer.status, headers });
  try {
    const answer = await runBatch(recordCollections(), batch.items, writer);
    return Response.json(answer.body, { status: answer.status, headers });
  } finally {
    await batch.cleanup();
  }
}

import type { Route } from "./+types/files";
import { recordNamesFile, type RecordFileSource } from "~/services/files/record-files.server";
import type { RecordAuth } from "~/services/records/collection.server";
import { storedFileHeaders } from "~/services/files/serve-headers.server";
import { FILE_SOURCES, fileTokenAuthOf, notFoundAnswer, pocketBaseError } from "./files-auth.server";
import { recordAuthOf } from "./record-auth.server";

// GET /api/files/{collectionIdOrName}/{recordId}/{filename} — PocketBase's file download
// (apis/file.go, tools/filesystem Serve), for the official SDK's `pb.files.getURL(record, name,
// {thumb, token, download})` (docs/decisions/0016). The record must be visible to whoever asks
// under the collection's own view rule; a protected file (solicitud attachments, quote PDFs) only
// counts the account of a valid `?token=` file token, as PocketBase. Every refusal and every
// malformed part is PocketBase's 404, so nothing says whether a record or file exists.

/** What a name in a URL may look like: PocketBase-style sanitized names, nothing that walks a path. */
const SEGMENT = /^[A-Za-z0-9_.-]{1,255}$/;
const PLAIN = (value: string | undefined): value is string => value !== undefined && SEGMENT.test(value) && value !== "." && value !== "..";

const PUBLIC_CACHE = "max-age=2592000, stale-while-revalidate=86400";

/** Go's strconv.ParseBool, as PocketBase reads `?download=`; anything else is false. */
const goTrue = (value: string | null) => value !== null && ["1", "t", "T", "TRUE", "true", "True"].includes(value);

function sourceFor(nameOrId: string): RecordFileSource | undefined {
  return FILE_SOURCES.find((source) => source.collection.name === nameOrId) ?? FILE_SOURCES.find((source) => source.collection.id === nameOrId);
}

/** The server leaves this path's headers to the route (server/security.ts): its refusals are never sniffed either. */
function unsniffed(response: Response): Response {
  if (!response.headers.has("X-Content-Type-Options")) response.headers.set("X-Content-Type-Options", "nosniff");
  return response;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return unsniffed(await serveFile(request, params));
}

async function serveFile(request: Request, params: Route.LoaderArgs["params"]): Promise<Response> {
  const { collection, recordId, filename } = params;
  if (!PLAIN(collection) || !PLAIN(recordId) || !PLAIN(filename)) return notFoundAnswer();
  const source = sourceFor(collection);
  if (!source) return notFoundAnswer();
  const query = new URL(request.url).searchParams;

  // A protected file counts only the file token; an unprotected one also whoever the Authorization header names (staff see inactive products).
  const tokenAuth = await fileTokenAuthOf(query.get("token"));
  const auth: RecordAuth = tokenAuth ?? (source.protected ? null : await recordAuthOf(request));
  const record = await source.collection.view(recordId, auth);
  if (!record || !recordNamesFile(record, source.fields, filename)) return notFoundAnswer();

  const file = await source.open({ record, fileName: filename, thumb: query.get("thumb"), auth });
  if (!file) return notFoundAnswer();

  // Shared caches may keep a file only when a guest could fetch it too.
  const isPublic = !source.protected && (auth === null || (await source.collection.view(recordId, null)) !== null);
  // Raster images show in place unless ?download=1; everything else is a sandboxed download (docs/decisions/0036).
  const headers = storedFileHeaders({
    type: file.contentType,
    name: file.name,
    size: file.size,
    inline: !goTrue(query.get("download")),
    cacheControl: isPublic ? PUBLIC_CACHE : "private, no-store",
    lastModified: file.modified ?? undefined,
  });
  if (request.method === "HEAD") {
    if (file.body instanceof ReadableStream) await file.body.cancel();
    return new Response(null, { headers });
  }
  return new Response(file.body as BodyInit, { headers });
}

export function action() {
  return unsniffed(pocketBaseError(405, "Method Not Allowed."));
}

import { findApiSession, gateStaffRecordView } from "~/features/accounts/index.server";
import { cotizacionesFiles } from "~/features/quotes/index.server";
import { productosFiles } from "~/features/catalogue/index.server";
import { mediosFiles } from "~/features/site/index.server";
import { solicitudesFiles } from "~/features/solicitudes/index.server";
import { verifyFileToken } from "~/services/files/file-tokens.server";
import type { RecordFileSource } from "~/services/files/record-files.server";
import type { RecordAuth } from "~/services/records/collection.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { KIND_OF } from "./record-auth.server";

// Shared by the files API routes (files.ts, files-token.ts; docs/decisions/0016).

/** The collections whose records name files; each defined by the feature that owns the data, behind the staff role's area. */
export const FILE_SOURCES: readonly RecordFileSource[] = [productosFiles, solicitudesFiles, cotizacionesFiles, mediosFiles].map((source) => ({
  ...source,
  collection: gateStaffRecordView(source.collection),
}));

/** Who a `?token=` file token speaks for: its account, if the token is ours, unexpired and its session alive; else a guest. */
export async function fileTokenAuthOf(token: string | null): Promise<RecordAuth> {
  if (!token) return null;
  const claims = verifyFileToken(token, { secret: getAuthSecret() });
  if (!claims) return null;
  const session = await findApiSession({ userId: claims.id, sessionId: claims.sid, kind: KIND_OF[claims.collection] });
  return session ? { collection: claims.collection, id: claims.id } : null;
}

/**
 * PocketBase's sandboxing policy for served files (tools/filesystem Serve). The server leaves its
 * page policy off /api/files/* (server/security.ts), so every answer there carries this one.
 */
export const FILE_CSP = "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** PocketBase's error body. */
export function pocketBaseError(status: number, message: string): Response {
  return Response.json({ status, message, data: {} }, { status, headers: { "Cache-Control": "no-store", "Content-Security-Policy": FILE_CSP } });
}

export const notFoundAnswer = () => pocketBaseError(404, "The requested resource wasn't found.");

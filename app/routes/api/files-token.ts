import type { Route } from "./+types/files-token";
import { signFileToken } from "~/services/files/file-tokens.server";
import { getAuthSecret } from "~/services/security/secret.server";
import { FILE_CSP, pocketBaseError } from "./files-auth.server";
import { readTokenAuth } from "./record-auth.server";

// POST /api/files/token — PocketBase's file token (apis/file.go fileToken, for the SDK's
// `pb.files.getToken()`): an account signed in through the record API gets a short-lived token
// for protected files, tied to the same session, so signing out ends it too (docs/decisions/0016).

export function loader() {
  return pocketBaseError(405, "Method Not Allowed.");
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method.toUpperCase() !== "POST") return pocketBaseError(405, "Method Not Allowed.");
  const auth = await readTokenAuth(request);
  // PocketBase's RequireAuth answer for a guest, a bad, expired or revoked token.
  if (!auth) return pocketBaseError(401, "The request requires valid record authorization token.");
  const token = signFileToken(
    { id: auth.claims.id, collection: auth.claims.collection, sessionId: auth.session.sessionId, sessionExpiresAt: auth.session.sessionExpiresAt },
    { secret: getAuthSecret() },
  );
  return Response.json({ token }, { headers: { "Cache-Control": "no-store", "Content-Security-Policy": FILE_CSP } });
}

import { and, eq, gt, sql } from "drizzle-orm";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import * as z from "zod";
import { getDb } from "~/db/client.server";
import { verification } from "~/db/schema/auth";

// Opens a better-auth session (its cookie and, through the bearer plugin, its `set-auth-token`)
// for an account that proved itself another way: an emailed one-time code, or a password and then
// a code (docs/decisions/0061). The proof is checked in one-time-codes.server.ts, which leaves a
// grant here: a random id, valid for a minute and used once. The endpoint is server-only, so
// better-auth never routes it over HTTP; it still asks for the grant, so reaching it proves nothing.

/** The verification row of a grant: `code-sign-in:<grant>` holds the account's id. */
export const GRANT_PREFIX = "code-sign-in:";

/** Uses the grant up (one DELETE, so two callers cannot both use it); the account's id, or null. */
async function consumeGrant(grant: string): Promise<string | null> {
  const [row] = await getDb()
    .delete(verification)
    .where(and(eq(verification.identifier, `${GRANT_PREFIX}${grant}`), gt(verification.expiresAt, sql`now()`)))
    .returning({ userId: verification.value });
  return row?.userId ?? null;
}

export function codeSignInPlugin() {
  return {
    id: "forja-code-sign-in",
    endpoints: {
      signInWithGrant: createAuthEndpoint.serverOnly({ method: "POST", body: z.object({ grant: z.string().min(1) }) }, async (ctx) => {
        const userId = await consumeGrant(ctx.body.grant);
        const found = userId ? await ctx.context.internalAdapter.findUserById(userId) : null;
        if (!found) throw new APIError("UNAUTHORIZED", { message: "invalid grant" });
        // better-auth's admin plugin refuses a session of a blocked account here (its session hook).
        const session = await ctx.context.internalAdapter.createSession(found.id);
        await setSessionCookie(ctx, { session, user: found });
        return ctx.json({ token: session.token, user: found });
      }),
    },
  } satisfies BetterAuthPlugin;
}

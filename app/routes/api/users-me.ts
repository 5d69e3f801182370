import type { Route } from "./+types/users-me";
import { getSessionUser } from "~/features/accounts/accounts.server";
import { getCurrentUserPayload, parsePopulate } from "~/features/accounts/users-me.server";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages } from "~/lib/result";
import { STRAPI_MESSAGES, readJwtSession, strapiError, strapiJson } from "./strapi-auth.server";

/** Strapi's populate: `populate=a,b`, `populate=*`, `populate[0]=a` or `populate[a]=…`. */
function populateParam(url: URL): string {
  const names: string[] = [];
  for (const [key, value] of url.searchParams) {
    if (key === "populate") names.push(value);
    else if (/^populate\[\d+\]$/.test(key)) names.push(value);
    else {
      const named = /^populate\[([^\]]+)\]/.exec(key);
      if (named) names.push(named[1]!);
    }
  }
  return names.join(",");
}

// GET /api/users/me[?populate=role,profile,providers|*] — the seed's user object itself
// (docs/decisions/0017). Authenticated by the API's `Authorization: Bearer <jwt>`; Forja's own pages
// (the header after hydration) ask with their session cookie, and better-auth's bearer session
// token still works too.
export async function loader({ request, context }: Route.LoaderArgs) {
  // Who asks first (a guest is a 401 whatever the query says), then what they asked for.
  const apiSession = await readJwtSession(request);
  const userId = apiSession ? apiSession.account.id : ((await getSessionUser(requestMeta(request, context)))?.id ?? null);
  if (!userId) return strapiError("UnauthorizedError", STRAPI_MESSAGES.missingCredentials);
  const populate = parsePopulate(populateParam(new URL(request.url)));
  if (!populate.ok) return strapiError("ValidationError", failureMessages(populate).formErrors.join(" "));
  const payload = await getCurrentUserPayload(userId, populate.value);
  if (!payload) return strapiError("UnauthorizedError", STRAPI_MESSAGES.missingCredentials);
  return strapiJson(payload);
}

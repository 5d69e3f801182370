import { and, asc, eq, ne } from "drizzle-orm";
import { createLiveCache, noteLocalChange } from "~/db/change-feed.server";
import { afterCommit, getDb, withTransaction } from "~/db/client.server";
import { redirects } from "~/db/schema/content";
import { invalid, notFoundResult, ok, type Result } from "~/lib/result";
import { isUuid } from "~/lib/uuid";
import { isReservedPath, normalizePath } from "./reserved-paths.server";

// 301s from old public addresses (docs/decisions/0037). Made when a published record's slug
// changes and editable by staff. Chains collapse (A→B, then B→C, makes A→C) and a live address
// never redirects, so following one redirect always lands on a page and never loops.

export interface Redirect {
  id: string;
  from: string;
  to: string;
  created: Date;
  updated: Date;
}

const EXTERNAL = /^https:\/\//i;

/** A redirect's target: another site's https address as written, or a path of this site (lowercased pathname, its query kept). */
export function normalizeTarget(to: string): string {
  const target = to.trim();
  if (EXTERNAL.test(target)) return target;
  const query = target.match(/\?[^#]*/)?.[0] ?? "";
  return `${normalizePath(target)}${query}`;
}

const toRedirect = (row: typeof redirects.$inferSelect): Redirect => ({ id: row.id, from: row.fromPath, to: row.toPath, created: row.createdAt, updated: row.updatedAt });

/**
 * Sends `from` to `to` (inside the caller's transaction when there is one): whatever led to `from`
 * now leads to `to`, and nothing leaves from `to` (it is a live address now).
 */
export async function addRedirect(from: string, to: string, now: Date = new Date()): Promise<void> {
  const source = normalizePath(from);
  const target = normalizeTarget(to);
  if (source === target) return;
  const db = getDb();
  await db.delete(redirects).where(eq(redirects.fromPath, target));
  await db
    .update(redirects)
    .set({ toPath: target, updatedAt: now })
    .where(and(eq(redirects.toPath, source), ne(redirects.fromPath, target)));
  await db
    .insert(redirects)
    .values({ fromPath: source, toPath: target, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: redirects.fromPath, set: { toPath: target, updatedAt: now } });
  await redirectsChanged();
}

/** Read-your-writes in this process: the next lookup here sees the change. */
function redirectsChanged(): Promise<void> {
  return afterCommit(() => noteLocalChange("contenido", "contenido:redirecciones"));
}

/** A record now lives at these addresses: no redirect may take visitors away from them. */
export async function removeRedirectsFrom(addresses: readonly string[]): Promise<void> {
  for (const address of new Set(addresses.filter((item) => !item.includes("#")).map(normalizePath))) {
    await getDb().delete(redirects).where(eq(redirects.fromPath, address));
  }
  await redirectsChanged();
}

export async function listRedirects(): Promise<Redirect[]> {
  return (await getDb().select().from(redirects).orderBy(asc(redirects.fromPath))).map(toRedirect);
}

/** Staff's own redirect (the redirections screen): refused when it starts at a route of the site or would make a loop. */
export async function saveRedirect(input: { id?: string; desde: string; hacia: string }, now: Date = new Date()): Promise<Result<Redirect>> {
  const from = normalizePath(input.desde);
  const to = normalizeTarget(input.hacia);
  if (!input.desde.trim().startsWith("/")) return invalid({ fieldErrors: { desde: ["Escriba la dirección anterior empezando con /, por ejemplo /servicios-antiguos."] } });
  if (!input.hacia.trim().startsWith("/") && !EXTERNAL.test(input.hacia.trim())) {
    return invalid({ fieldErrors: { hacia: ["Escriba una dirección de este sitio que empiece con /, o una dirección completa que empiece con https://."] } });
  }
  if (isReservedPath(from)) return invalid({ fieldErrors: { desde: [`${from} es una página del sitio: no puede redirigirse.`] } });
  const isLocal = (address: string) => !EXTERNAL.test(address);
  if (isLocal(to) && normalizePath(to) === from) return invalid({ fieldErrors: { hacia: ["La dirección nueva debe ser distinta de la anterior."] } });
  return withTransaction(async () => {
    const all = await getDb().select().from(redirects).for("update");
    const byFrom = new Map(all.filter((row) => row.id !== input.id).map((row) => [row.fromPath, row.toPath]));
    // Where `to` finally leads: a chain ending where it starts would be a loop.
    let target = to;
    for (let hops = 0; isLocal(target) && byFrom.has(normalizePath(target)) && hops <= byFrom.size; hops += 1) target = byFrom.get(normalizePath(target))!;
    if (isLocal(target) && normalizePath(target) === from) return invalid({ fieldErrors: { hacia: [`${to} ya lleva de regreso a ${from}: se formaría un ciclo.`] } });
    if (input.id) {
      if (!isUuid(input.id) || !all.some((row) => row.id === input.id)) return notFoundResult("Esa redirección ya no existe.");
      await getDb().delete(redirects).where(eq(redirects.id, input.id));
    }
    const clash = all.find((row) => row.fromPath === from && row.id !== input.id);
    if (clash) return invalid({ fieldErrors: { desde: [`Ya hay una redirección desde ${from} (hacia ${clash.toPath}).`] } });
    await addRedirect(from, target, now);
    const [row] = await getDb().select().from(redirects).where(eq(redirects.fromPath, from));
    return ok(toRedirect(row!));
  });
}

export async function deleteRedirect(id: string): Promise<Result> {
  if (!isUuid(id)) return notFoundResult("Esa redirección ya no existe.");
  const deleted = await getDb().delete(redirects).where(eq(redirects.id, id)).returning({ id: redirects.id });
  await redirectsChanged();
  return deleted.length ? ok() : notFoundResult("Esa redirección ya no existe.");
}

const cache = createLiveCache<Map<string, string>>("contenido:redirecciones", 1);

/** Where an old address now lives (for the 301), or null; from memory while no redirect changes. */
export async function findRedirect(address: string): Promise<string | null> {
  const map = await cache.get("all", async () => new Map((await getDb().select({ from: redirects.fromPath, to: redirects.toPath }).from(redirects)).map((row) => [row.from, row.to])));
  return map.get(normalizePath(address)) ?? null;
}

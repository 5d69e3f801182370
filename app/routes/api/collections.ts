import type { Route } from "./+types/collections";
import { parseListParams } from "~/lib/list-params";
import { pocketBaseError } from "~/services/records/auth-records.server";
import { collectionModel, collectionScaffolds, findCollection } from "~/services/records/collection-schemas.server";
import { RECORD_API_MESSAGES, RECORDS_PER_PAGE } from "~/services/records/records.server";
import { recordCollections } from "~/services/records/registry.server";
import { errorResponse, NO_STORE } from "./record-auth.server";
import { superuserOnly } from "./superusers-only.server";

// PocketBase's collections API (apis/collection.go), superusers only and read-only (issue 17 §3,
// docs/decisions/0056): GET /api/collections, /api/collections/{idOrName} and
// /api/collections/meta/scaffolds answer Forja's collections in PocketBase's model. Creating,
// changing, deleting, importing or truncating a collection answers 403: they are the application's
// domain, changed with its code and migrations.

const READ_ONLY =
  "Las colecciones de Forja son parte de la aplicación: se cambian con su código y sus migraciones, no desde la API. Los registros sí se editan en /api/collections/{colección}/records.";

/** PocketBase's list filter over collections is not offered: the list is short and fixed. */
const NO_FILTER = "Forja no filtra la lista de colecciones; pida la lista completa o una colección por su nombre.";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  const all = recordCollections();
  if (new URL(request.url).pathname.endsWith("/meta/scaffolds")) return Response.json(collectionScaffolds(), { headers: NO_STORE });
  if (params.collection !== undefined) {
    const collection = findCollection(all, params.collection);
    if (!collection) return errorResponse(pocketBaseError(404, RECORD_API_MESSAGES.notFound));
    return Response.json(collectionModel(collection, all), { headers: NO_STORE });
  }
  const query = new URL(request.url).searchParams;
  if (query.get("filter")?.trim()) return errorResponse(pocketBaseError(400, NO_FILTER));
  const { page, perPage, offset } = parseListParams(query, { names: { page: "page", perPage: "perPage", sort: "sort", dir: "dir" }, perPage: RECORDS_PER_PAGE });
  const descending = query.get("sort")?.trim() === "-name";
  const models = all.map((collection) => collectionModel(collection, all)).sort((a, b) => (descending ? b.name.localeCompare(a.name) : a.name.localeCompare(b.name)));
  const skipTotal = query.get("skipTotal") === "1" || query.get("skipTotal") === "true";
  return Response.json(
    {
      page,
      perPage,
      totalItems: skipTotal ? -1 : models.length,
      totalPages: skipTotal ? -1 : Math.ceil(models.length / perPage),
      items: models.slice(offset, offset + perPage),
    },
    { headers: NO_STORE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  return errorResponse(pocketBaseError(403, READ_ONLY));
}

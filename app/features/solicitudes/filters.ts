import { z } from "~/lib/zod";
import { isoDayField, optionalEnumField, pageField, perPageField, searchField } from "~/lib/list-fields";
import { INDUSTRY_OPTIONS, SOLICITUD_STATUSES, SOLICITUD_TYPES } from "./forms";

// URL search params of /admin/formularios (and its CSV export) → a complete, valid filter object,
// in Spanish like the rest of the URL. A shared link must always open, so a bad or stale value is
// dropped (or clamped) instead of failing the page.

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 500;

const valuesOf = <T extends readonly { value: string }[]>(options: T) => options.map((option) => option.value) as T[number]["value"][];

export const SolicitudFiltersSchema = z
  .object({
    pagina: pageField(),
    porPagina: perPageField({ default: DEFAULT_PER_PAGE, max: MAX_PER_PAGE }),
    orden: optionalEnumField(["fecha", "estado"] as const),
    dir: optionalEnumField(["asc", "desc"] as const),
    tipo: optionalEnumField(valuesOf(SOLICITUD_TYPES)),
    estado: optionalEnumField(valuesOf(SOLICITUD_STATUSES)),
    industria: optionalEnumField(valuesOf(INDUSTRY_OPTIONS)),
    desde: isoDayField,
    hasta: isoDayField,
    q: searchField(200),
    sinTotal: z.string().optional(),
  })
  .transform((raw) => {
    const sort = raw.orden ?? "fecha";
    return {
      page: raw.pagina,
      perPage: raw.porPagina,
      sort,
      // Newest first by date; workflow order (nuevo first) by status.
      dir: raw.dir ?? (sort === "fecha" ? "desc" : "asc"),
      type: raw.tipo,
      status: raw.estado,
      industry: raw.industria,
      from: raw.desde,
      to: raw.hasta,
      q: raw.q,
      skipTotal: raw.sinTotal === "1",
    };
  });

export type SolicitudFilters = z.output<typeof SolicitudFiltersSchema>;

export function parseSolicitudFilters(params: URLSearchParams): SolicitudFilters {
  return SolicitudFiltersSchema.parse(Object.fromEntries(params));
}

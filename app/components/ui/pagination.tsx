import { AppLink } from "~/components/ui/app-link";
import { formatNumber } from "~/lib/format";

/** Page links around the current one: first, …, neighbours, …, last. The one pagination of every list. */
function pageNumbers(page: number, pages: number): (number | "…")[] {
  const wanted = new Set([1, pages, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pages));
  const sorted = [...wanted].sort((a, b) => a - b);
  const result: (number | "…")[] = [];
  for (const [index, n] of sorted.entries()) {
    if (index > 0 && n - sorted[index - 1]! > 1) result.push("…");
    result.push(n);
  }
  return result;
}

export function Pagination({ page, pages, hrefFor, label = "Páginas" }: { page: number; pages: number; hrefFor: (page: number) => string; label?: string }) {
  if (pages <= 1) return null;
  const link = "rounded-md px-3 py-1.5 font-semibold text-forja-700 underline-offset-2 hover:bg-forja-50 hover:underline";
  return (
    <nav aria-label={label} className="mt-8 flex flex-wrap items-center justify-center gap-1 text-sm">
      {page > 1 ? (
        <AppLink to={hrefFor(page - 1)} className={link} rel="prev">
          ← Anterior
        </AppLink>
      ) : null}
      <ul className="flex flex-wrap items-center gap-1">
        {pageNumbers(page, pages).map((n, index) =>
          n === "…" ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-2 text-acero-600">
              …
            </li>
          ) : (
            <li key={n}>
              {n === page ? (
                <span aria-current="page" className="rounded-md bg-acero-900 px-3 py-1.5 font-semibold text-white">
                  <span className="sr-only">Página </span>
                  {formatNumber(n)}
                </span>
              ) : (
                <AppLink to={hrefFor(n)} className={link} aria-label={`Página ${n}`}>
                  {formatNumber(n)}
                </AppLink>
              )}
            </li>
          ),
        )}
      </ul>
      {page < pages ? (
        <AppLink to={hrefFor(page + 1)} className={link} rel="next">
          Siguiente →
        </AppLink>
      ) : null}
    </nav>
  );
}

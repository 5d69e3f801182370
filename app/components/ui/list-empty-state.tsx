import type { ReactNode } from "react";
import { AppLink } from "./app-link";

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

interface ListEmptyStateProps {
  /** A page past the last one (rows exist, just not here). */
  pastTheEnd: boolean;
  filtered: boolean;
  firstPageHref: string;
  allHref: string;
  /** "Esta página ya no tiene productos." */
  pastTheEndText: string;
  /** "Ningún producto coincide con estos filtros." */
  noMatchText: string;
  /** "Ver todos" / "Ver todas". */
  seeAllLabel: string;
  /** What to say (and offer) when there is nothing at all yet. */
  children: ReactNode;
}

/** The empty state of every staff list: past the last page, nothing matching the filters, or nothing yet. */
export function ListEmptyState({ pastTheEnd, filtered, firstPageHref, allHref, pastTheEndText, noMatchText, seeAllLabel, children }: ListEmptyStateProps) {
  return (
    <div className="mt-8 rounded-lg border border-dashed border-acero-300 bg-white p-6 text-acero-700">
      {pastTheEnd ? (
        <p>
          {pastTheEndText}{" "}
          <AppLink to={firstPageHref} className={linkClass}>
            Ir a la primera página
          </AppLink>
        </p>
      ) : filtered ? (
        <p>
          {noMatchText}{" "}
          <AppLink to={allHref} className={linkClass}>
            {seeAllLabel}
          </AppLink>
        </p>
      ) : (
        <p>{children}</p>
      )}
    </div>
  );
}

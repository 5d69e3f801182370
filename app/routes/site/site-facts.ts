import { useRouteLoaderData } from "react-router";
import type { PublicSiteFacts } from "~/services/site-config/business-facts";
import type { loader } from "./layout";

// The business facts the site layout loaded (docs/decisions/0047), for the pages inside it.

const LAYOUT_ID = "routes/site/layout";

/** The public business facts, in a page rendered inside the site layout. */
export function useSiteFacts(): PublicSiteFacts {
  const data = useRouteLoaderData<typeof loader>(LAYOUT_ID);
  if (!data) throw new Error("Los datos de la empresa se leen dentro del diseño del sitio.");
  return data.facts;
}

/** The same facts in a route's `meta`, from the matches it receives. */
export function siteFactsOf(matches: readonly ({ id: string; loaderData?: unknown } | undefined)[]): PublicSiteFacts | undefined {
  const layout = matches.find((match) => match?.id === LAYOUT_ID);
  return (layout?.loaderData as Awaited<ReturnType<typeof loader>> | undefined)?.facts;
}

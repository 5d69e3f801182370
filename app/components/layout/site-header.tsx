import { AppLink, AppNavLink } from "~/components/ui/app-link";
import { MediaPicture } from "~/components/ui/media-picture";
import type { MediaView } from "~/lib/media";
import type { PublicSiteFacts } from "~/services/site-config/business-facts";
import type { ReactNode } from "react";

export const mainNavigation = [
  { to: "/servicios", label: "Servicios" },
  { to: "/industrias", label: "Industrias" },
  { to: "/catalogo", label: "Catálogo" },
  { to: "/faqs", label: "Preguntas frecuentes" },
  { to: "/about", label: "Nosotros" },
  { to: "/contact", label: "Contacto" },
] as const;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap ${isActive ? "bg-acero-100 text-acero-900" : "text-acero-700 hover:bg-acero-50 hover:text-acero-900"}`;

/**
 * The header of the public site. Its items never wrap: the full navigation shows from `xl` (1280 px),
 * where it fits on one line beside the brand and the account links; below that a menu holds it, and
 * the brand drops its tagline where the bar is full (docs/decisions/0029).
 * The account and cart links belong to their features, so the layout
 * route hands them in (shared components import no feature); each is drawn with the class it gets.
 * The name, phone and logo are the business facts of `ajustes` (docs/decisions/0047): the logo,
 * when staff chose one, takes the place of the name.
 */
export interface SiteHeaderProps {
  facts: Pick<PublicSiteFacts, "name" | "shortName" | "phone">;
  logo: MediaView | null;
  accountLink: (className: string) => ReactNode;
  cartLink: (className: string) => ReactNode;
}

export function SiteHeader({ facts, logo, accountLink, cartLink }: SiteHeaderProps) {
  // "Forja" and "Diseño y Manufactura": the rest of the name shows only while the bar is a menu.
  const rest = facts.name.startsWith(facts.shortName) ? facts.name.slice(facts.shortName.length).trim() : "";
  return (
    <header className="sticky top-0 z-40 border-b border-acero-200 bg-white/95 backdrop-blur">
      <a
        href="#contenido"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2"
      >
        Saltar al contenido
      </a>
      <div className="container-page flex h-16 items-center justify-between gap-4">
        {/* The name is the visible text plus ", inicio" (WCAG 2.5.3: a label must contain the visible text). */}
        <AppLink to="/" className="flex shrink-0 items-center gap-2 font-bold whitespace-nowrap text-acero-900">
          {logo ? (
            // The picture's alt text is the link's name: the business, then where the link goes.
            <MediaPicture image={{ ...logo, alt: `${facts.name}, inicio` }} sizes="160px" priority className="h-10 w-auto max-w-40 object-contain" />
          ) : (
            <>
              <span aria-hidden="true" className="grid size-9 shrink-0 place-items-center rounded-md bg-acero-900 text-lg text-white">
                {facts.shortName.slice(0, 1)}
              </span>
              <span className="text-lg leading-tight">
                {facts.shortName} {rest ? <span className="hidden font-normal text-acero-600 sm:inline xl:hidden">{rest}</span> : null}
                <span className="sr-only">, inicio</span>
              </span>
            </>
          )}
        </AppLink>

        <nav aria-label="Principal" className="hidden xl:block">
          <ul className="flex items-center gap-1">
            {mainNavigation.map((item) => (
              <li key={item.to}>
                <AppNavLink to={item.to} className={navLinkClass}>
                  {item.label}
                </AppNavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="hidden shrink-0 items-center gap-2 xl:flex">
          {cartLink("inline-flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-acero-700 hover:bg-acero-50")}
          {accountLink("rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-acero-700 hover:bg-acero-50")}
          <AppLink to="/cotiza" className="btn-primary px-4 py-2 text-sm whitespace-nowrap">
            Cotizar
          </AppLink>
        </div>

        {cartLink("ml-auto inline-flex items-center gap-1 rounded-md px-2 py-2 text-sm font-medium whitespace-nowrap text-acero-700 hover:bg-acero-50 xl:hidden")}
        {/* A <details> menu opens and closes without JavaScript. */}
        <details className="group relative xl:hidden" data-testid="mobile-menu">
          <summary className="flex shrink-0 cursor-pointer whitespace-nowrap list-none items-center gap-2 rounded-md border border-acero-300 px-3 py-2 text-sm font-semibold text-acero-900 [&::-webkit-details-marker]:hidden">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
              <path d="M3 5h14v2H3zM3 9h14v2H3zM3 13h14v2H3z" />
            </svg>
            Menú
          </summary>
          <nav
            aria-label="Menú móvil"
            className="absolute right-0 mt-2 w-64 rounded-lg border border-acero-200 bg-white p-2 shadow-lg"
          >
            <ul className="flex flex-col">
              {mainNavigation.map((item) => (
                <li key={item.to}>
                  <AppNavLink to={item.to} className={(state) => `${navLinkClass(state)} block`}>
                    {item.label}
                  </AppNavLink>
                </li>
              ))}
              <li>
                {accountLink("block rounded-md px-3 py-2 text-sm font-medium text-acero-700 hover:bg-acero-50")}
              </li>
              <li>
                <a href={facts.phone.href} className="block rounded-md px-3 py-2 text-sm font-medium text-acero-700 hover:bg-acero-50">
                  Llamar al {facts.phone.display}
                </a>
              </li>
              <li className="mt-2">
                <AppLink to="/cotiza" className="btn-primary w-full py-2 text-sm">
                  Solicite su cotización
                </AppLink>
              </li>
            </ul>
          </nav>
        </details>
      </div>
    </header>
  );
}

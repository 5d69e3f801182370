import { AppLink } from "~/components/ui/app-link";
import type { PublicSiteFacts } from "~/services/site-config/business-facts";
import { mainNavigation } from "./site-header";

// Every link is at least 24 × 24 CSS px to tap (WCAG 2.5.8): inline-flex with a minimum height
// centres the text in that box without changing its size.
const FOOTER_LINK = "inline-flex min-h-6 items-center py-0.5 text-acero-100 underline-offset-2 hover:underline";
const LEGAL_LINK = "inline-flex min-h-6 items-center py-0.5 underline-offset-2 hover:underline";

/** The footer of the public site; the business facts come from the layout's loader (docs/decisions/0047). */
export function SiteFooter({ facts }: { facts: PublicSiteFacts }) {
  return (
    <footer className="mt-16 bg-acero-900 text-acero-100">
      <div className="container-page grid gap-10 py-12 md:grid-cols-4">
        <div className="md:col-span-2">
          <p className="text-lg font-bold text-white">{facts.name}</p>
          <p className="mt-2 max-w-md text-sm text-acero-200">{facts.tagline}.</p>
          <address className="mt-4 text-sm leading-relaxed text-acero-200 not-italic">
            {facts.address.formatted}
            <br />
            {facts.hours.label}
          </address>
        </div>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Contacto</h2>
          <ul className="mt-3 space-y-1 text-sm">
            <li>
              <a className={FOOTER_LINK} href={facts.phone.href}>
                Tel. {facts.phone.display}
              </a>
            </li>
            <li>
              <a className={FOOTER_LINK} href={facts.whatsapp.url} rel="noopener noreferrer" target="_blank">
                WhatsApp {facts.whatsapp.display}
              </a>
            </li>
            <li>
              <a className={FOOTER_LINK} href={`mailto:${facts.email}`}>
                {facts.email}
              </a>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Sitio</h2>
          <ul className="mt-3 space-y-1 text-sm">
            {mainNavigation.map((item) => (
              <li key={item.to}>
                <AppLink className={FOOTER_LINK} to={item.to}>
                  {item.label}
                </AppLink>
              </li>
            ))}
            <li>
              <AppLink className={FOOTER_LINK} to="/cotiza">
                Solicitar cotización
              </AppLink>
            </li>
          </ul>
        </div>
      </div>
      <div className="border-t border-acero-800">
        <div className="container-page flex flex-col gap-2 py-6 text-xs text-acero-300 sm:flex-row sm:justify-between">
          <p>
            © {new Date().getFullYear()} {facts.legalName} · RFC {facts.rfc}
          </p>
          <ul className="flex flex-wrap gap-x-4">
            <li>
              <AppLink className={LEGAL_LINK} to="/aviso-de-privacidad">
                Aviso de privacidad
              </AppLink>
            </li>
            <li>
              <AppLink className={LEGAL_LINK} to="/terminos">
                Términos y condiciones
              </AppLink>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}

import { formatAddress, siteConfig, whatsappUrl } from "~/services/site-config/site-config";

/** Phone, WhatsApp, email, address and hours: the ways to reach the plant directly. */
export function DirectContact({ heading = "Contacto directo" }: { heading?: string }) {
  return (
    <section aria-labelledby="contacto-directo" className="rounded-lg border border-acero-200 bg-white p-6">
      <h2 id="contacto-directo" className="text-lg font-semibold text-acero-900">
        {heading}
      </h2>
      <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-semibold text-acero-900">Teléfono</dt>
          <dd>
            <a className="text-forja-700 underline underline-offset-2" href={siteConfig.phone.href}>
              {siteConfig.phone.display}
            </a>
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-acero-900">WhatsApp</dt>
          <dd>
            <a className="text-forja-700 underline underline-offset-2" href={whatsappUrl()} target="_blank" rel="noopener noreferrer">
              {siteConfig.whatsapp.display}
            </a>
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-acero-900">Correo</dt>
          <dd>
            <a className="text-forja-700 underline underline-offset-2" href={`mailto:${siteConfig.email}`}>
              {siteConfig.email}
            </a>
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-acero-900">Horario</dt>
          <dd className="text-acero-800">{siteConfig.hours.label}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="font-semibold text-acero-900">Planta</dt>
          <dd className="text-acero-800">{formatAddress()}</dd>
        </div>
      </dl>
    </section>
  );
}

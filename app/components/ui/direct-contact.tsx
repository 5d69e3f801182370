import type { PublicSiteFacts } from "~/services/site-config/business-facts";

/** Phone, WhatsApp, email, address and hours: the ways to reach the plant directly. */
export function DirectContact({ facts, heading = "Contacto directo" }: { facts: PublicSiteFacts; heading?: string }) {
  return (
    <section aria-labelledby="contacto-directo" className="rounded-lg border border-acero-200 bg-white p-6">
      <h2 id="contacto-directo" className="text-lg font-semibold text-acero-900">
        {heading}
      </h2>
      {/* Columns by the room the box has, not the window's: in a narrow sidebar it is one column, and a long address breaks. */}
      <dl className="mt-4 grid grid-cols-[repeat(auto-fit,minmax(12rem,1fr))] gap-4 text-sm wrap-anywhere">
        <div>
          <dt className="font-semibold text-acero-900">Teléfono</dt>
          <dd>
            <a className="text-forja-700 underline underline-offset-2" href={facts.phone.href}>
              {facts.phone.display}
            </a>
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-acero-900">WhatsApp</dt>
          <dd>
            <a className="text-forja-700 underline underline-offset-2" href={facts.whatsapp.url} target="_blank" rel="noopener noreferrer">
              {facts.whatsapp.display}
            </a>
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-acero-900">Correo</dt>
          <dd>
            <a className="text-forja-700 underline underline-offset-2" href={`mailto:${facts.email}`}>
              {facts.email}
            </a>
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-acero-900">Horario</dt>
          <dd className="text-acero-800">{facts.hours.label}</dd>
        </div>
        <div className="col-span-full">
          <dt className="font-semibold text-acero-900">Planta</dt>
          <dd className="text-acero-800">{facts.address.formatted}</dd>
        </div>
      </dl>
    </section>
  );
}

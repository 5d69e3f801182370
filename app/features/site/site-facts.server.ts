import { formatAddress, formatLocality, paymentRuleOf, phoneHref, publicFacts, whatsappNumber, whatsappUrl, type PublicSiteFacts, type SiteFacts } from "~/services/site-config/business-facts";
import type { MediaView } from "~/lib/media";
import { singleton } from "~/services/content/published.server";
import { ajustes, DIAS, type Ajustes } from "./content-collections/ajustes";
import { mediaViews } from "./media/media-library.server";

// The business facts for every page, email and quote PDF, from the published `ajustes` record
// (issue 16 §1, docs/decisions/0047). Read at the time of use: the published singleton is cached
// per content version, so a publish is seen by the next call in every process, and a draft never is.

export type { PublicSiteFacts, SiteFacts } from "~/services/site-config/business-facts";

/** The facts an `ajustes` record states, in the shape pages, emails and the PDF use. */
export function factsFromAjustes(data: Ajustes): SiteFacts {
  const address = { street: data.direccion, locality: data.localidad, region: data.estado, postalCode: data.codigo_postal, country: data.pais };
  const number = whatsappNumber(data.whatsapp);
  const terms = { onConfirmation: data.pago_al_confirmar, series: data.pago_series };
  return {
    name: data.nombre,
    shortName: data.nombre_corto,
    legalName: data.razon_social,
    rfc: data.rfc,
    tagline: data.lema,
    description: data.descripcion,
    address: { ...address, formatted: formatAddress(address), localityLine: formatLocality(address) },
    hours: { label: data.horario, inSentence: data.horario_en_frase, days: data.dias.map((day) => DIAS[day]), opens: data.abre, closes: data.cierra },
    phone: { display: data.telefono, href: phoneHref(data.telefono) },
    whatsapp: { display: data.whatsapp, number, url: whatsappUrl(number) },
    email: data.correo,
    logo: data.logo,
    payment: { bank: data.banco, clabe: data.clabe, beneficiary: data.beneficiario },
    paymentTerms: { depositPercent: data.anticipo_porcentaje, ...terms, credit: data.credito ?? "", rule: paymentRuleOf(terms) },
    quoteDefaults: { terms: data.condiciones_cotizacion, validityDays: data.vigencia_dias },
  };
}

/** The facts of the published `ajustes` record; its seed values before the record exists (a test without a seed). */
export async function getSiteFacts(): Promise<SiteFacts> {
  const record = await singleton(ajustes);
  return factsFromAjustes(record ? record.data : ajustes.seed()[0]!);
}

/** What the public layout and pages receive: no bank account, payment terms or quote defaults. */
export async function getPublicSiteFacts(): Promise<PublicSiteFacts> {
  return publicFacts(await getSiteFacts());
}

/** What the site layout (header and footer) shows: the public facts and the logo's picture, if one is chosen. */
export async function getSiteLayoutFacts(): Promise<{ facts: PublicSiteFacts; logo: MediaView | null }> {
  const facts = await getPublicSiteFacts();
  const image = facts.logo ? (await mediaViews([facts.logo])).get(facts.logo) : undefined;
  // A deleted image shows the name, as before a logo was chosen.
  const logo = image ? { id: image.id, alt: image.alt, width: image.width, height: image.height, focalX: image.focalX, focalY: image.focalY, widths: image.widths } : null;
  return { facts, logo };
}

// The business facts as pages, emails and the quote PDF use them (docs/decisions/0047). Their one
// source is the `ajustes` record (features/site/site-facts.server.ts builds a SiteFacts from it);
// this module holds only the shapes and the pure formatting, with no data of its own, so shared
// components and the browser format the facts they receive from loader data.
import type { PaymentConfig } from "./payment-account";

export interface SiteAddress {
  street: string;
  locality: string;
  region: string;
  postalCode: string;
  /** ISO 3166 code, "MX". */
  country: string;
}

/** What every public page may show: the header, the footer, Contacto and structured data. */
export interface PublicSiteFacts {
  name: string;
  shortName: string;
  legalName: string;
  rfc: string;
  tagline: string;
  description: string;
  address: SiteAddress & {
    /** "Parque Industrial Querétaro, Santa Rosa Jáuregui, Querétaro, CP 76220". */
    formatted: string;
    /** "Santa Rosa Jáuregui, Querétaro". */
    localityLine: string;
  };
  hours: {
    /** "Lunes a viernes, 8:00 a 18:00": read on its own. */
    label: string;
    /** "de lunes a viernes de 8:00 a 18:00": mid-sentence. */
    inSentence: string;
    /** schema.org day names: "Monday"… */
    days: string[];
    /** "08:00", 24 hours. */
    opens: string;
    closes: string;
  };
  phone: { display: string; href: string };
  whatsapp: { display: string; number: string; url: string };
  email: string;
  /** The logo's library image id, or null to show the name. */
  logo: string | null;
}

/** Everything, server side: the public facts plus the SPEI account, payment terms and quote defaults. */
export interface SiteFacts extends PublicSiteFacts {
  payment: PaymentConfig;
  paymentTerms: {
    depositPercent: number;
    onConfirmation: string;
    series: string;
    /** Empty when the business offers no credit. */
    credit: string;
    /** Paid on confirmation, or a deposit for series: the two sentences as one paragraph. */
    rule: string;
  };
  quoteDefaults: { terms: string; validityDays: number };
}

/** "08:00" → "8:00": es-MX prose writes hours without the leading zero. */
export const clock = (time: string) => time.replace(/^0(?=\d:)/, "");

/** The number with Mexico's country code when it has ten digits: "+52 442 000 0000" → "524420000000". */
function internationalDigits(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length === 10 ? `52${digits}` : digits;
}

/** "tel:+524420000000" for a phone written "+52 442 000 0000" (ten digits get Mexico's +52). */
export function phoneHref(phone: string): string {
  return `tel:+${internationalDigits(phone)}`;
}

/** The number wa.me wants: digits only, with the country code ("524420000001"). */
export function whatsappNumber(phone: string): string {
  return internationalDigits(phone);
}

export const DEFAULT_WHATSAPP_MESSAGE = "Hola, me interesa cotizar un proyecto con Forja.";

/** A wa.me link that opens a chat with the business, with a first message written. */
export function whatsappUrl(number: string, message = DEFAULT_WHATSAPP_MESSAGE): string {
  return `https://wa.me/${number}?text=${encodeURIComponent(message)}`;
}

/** "Santa Rosa Jáuregui, Querétaro": where the plant is, short (the checkout's pickup option). */
export function formatLocality(address: Pick<SiteAddress, "locality" | "region">): string {
  return `${address.locality}, ${address.region}`;
}

export function formatAddress(address: Omit<SiteAddress, "country">): string {
  return `${address.street}, ${formatLocality(address)}, CP ${address.postalCode}`;
}

/** The payment rule as one paragraph: paid on confirmation, or a deposit for series. */
export function paymentRuleOf(terms: { onConfirmation: string; series: string }): string {
  return `${terms.onConfirmation} ${terms.series}`;
}

/** The facts a public page may receive (no bank account, terms or quote defaults). */
export function publicFacts(facts: SiteFacts): PublicSiteFacts {
  const { payment: _payment, paymentTerms: _terms, quoteDefaults: _quote, ...shown } = facts;
  return shown;
}

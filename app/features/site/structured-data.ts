import type { PublicSiteFacts } from "~/services/site-config/business-facts";

/** schema.org LocalBusiness for the home page, built from the business facts of `ajustes` (docs/decisions/0047). */
export function localBusinessJsonLd(publicUrl: string, facts: PublicSiteFacts) {
  const a = facts.address;
  return {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": `${publicUrl}/#empresa`,
    name: facts.name,
    legalName: facts.legalName,
    description: facts.description,
    url: `${publicUrl}/`,
    telephone: facts.phone.display,
    email: facts.email,
    taxID: facts.rfc,
    address: {
      "@type": "PostalAddress",
      streetAddress: a.street,
      addressLocality: a.locality,
      addressRegion: a.region,
      postalCode: a.postalCode,
      addressCountry: a.country,
    },
    openingHoursSpecification: [
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: facts.hours.days,
        opens: facts.hours.opens,
        closes: facts.hours.closes,
      },
    ],
    areaServed: "MX",
  };
}

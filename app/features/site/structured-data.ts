import { siteConfig } from "~/services/site-config/site-config";

/** schema.org LocalBusiness for the home page, built from the site config. */
export function localBusinessJsonLd(publicUrl: string) {
  const a = siteConfig.address;
  return {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": `${publicUrl}/#empresa`,
    name: siteConfig.name,
    legalName: siteConfig.legalName,
    description: siteConfig.description,
    url: `${publicUrl}/`,
    telephone: siteConfig.phone.display,
    email: siteConfig.email,
    taxID: siteConfig.rfc,
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
        dayOfWeek: siteConfig.hours.days,
        opens: siteConfig.hours.opens,
        closes: siteConfig.hours.closes,
      },
    ],
    areaServed: "MX",
  };
}

import type { MetaDescriptor } from "react-router";

const SITE = "Forja Diseño y Manufactura";

/** Title, description and Open Graph tags for a page, in one place. */
export function pageMeta({ title, description, noindex = false }: { title: string; description: string; noindex?: boolean }): MetaDescriptor[] {
  const fullTitle = title === SITE ? title : `${title} | Forja`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:locale", content: "es_MX" },
    { property: "og:site_name", content: SITE },
  ];
  if (noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

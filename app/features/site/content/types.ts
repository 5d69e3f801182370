// Shapes of the editorial content of the public site. The data lives in the sibling modules
// (services.ts, industries.ts, faqs.ts, about.ts, home.ts, legal.ts) so copy can change without touching pages.

export type ServiceSlug =
  | "diseno-industrial"
  | "ingenieria-cad"
  | "prototipado-rapido"
  | "maquinado-cnc"
  | "lamina"
  | "moldes-inyeccion"
  | "ingenieria-inversa"
  | "ensamble-contrato";

export interface Service {
  slug: ServiceSlug;
  /** Display name, e.g. "Maquinado CNC". */
  name: string;
  /** One sentence for cards (max ~140 characters). */
  summary: string;
  /** 2–3 short paragraphs for the services page. */
  description: string[];
  /** Concrete capabilities: bed sizes, tolerances, materials, lead times. 4–6 bullets. */
  capabilities: string[];
  /** Typical lead time shown as a fact, e.g. "Prototipos en 3 a 5 días hábiles". */
  leadTime: string;
}

export type IndustrySlug =
  | "aeroespacial"
  | "agricola"
  | "alimentos"
  | "automotriz"
  | "construccion"
  | "electronica"
  | "energia"
  | "industrial"
  | "medica"
  | "minera";

export interface Industry {
  slug: IndustrySlug;
  /** Display name with accents, e.g. "Médica", "Agrícola". */
  name: string;
  /** What a project of this industry is called after "Cotizar", with its own agreement, e.g. "un proyecto médico". */
  projectPhrase: string;
  /** The industry named mid-sentence, lowercase and with its article, e.g. "el sector médico", "la minería". */
  sectorPhrase: string;
  /** Hero headline for the industry page (one line). */
  headline: string;
  /** One sentence for cards and meta description (max ~155 characters). */
  summary: string;
  /** Intro paragraph for the hero. */
  intro: string;
  /** Typical problems customers in this industry bring: 3–5 items, each a short title + one sentence. */
  challenges: { title: string; text: string }[];
  /** The services that fit, by slug, with one sentence on how each applies here. 3–4 items. */
  services: { slug: ServiceSlug; text: string }[];
  /** Materials customers ask about: 4–6 short items. */
  materials: string[];
  /** Standards and certifications customers ask about: 2–5 short items. */
  standards: string[];
  /** A short example project (realistic, no real client names). */
  example: { title: string; text: string; figures: string[] };
}

export interface Faq {
  question: string;
  /** One or more paragraphs. */
  answer: string[];
}

export interface FaqGroup {
  title: string;
  items: Faq[];
}

export interface LegalPage {
  slug: "aviso-de-privacidad" | "terminos";
  title: string;
  /** One sentence for search results and the meta description. */
  description: string;
  /** Markdown body (headings from ##). */
  body: string;
}

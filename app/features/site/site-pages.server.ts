import { renderRichText } from "~/lib/rich-text/render.server";
import { publishedRecord, publishedRecords, singleton } from "~/services/content/published.server";
import { industrias, industryPath, type Industria } from "./content-collections/industrias";
import { inicio, type Inicio } from "./content-collections/inicio";
import { servicios, type Servicio } from "./content-collections/servicios";
import { siteRichTextOptions } from "./rich-text.server";
import type { PagePicture } from "./page-picture";
import { heroPicture, industryDrawing, industryPicture, libraryImagesOf, servicePicture } from "./page-pictures.server";
import { serviceNameInSentence } from "./service-name";
import type { SiteDrawing } from "./imagery/images.server";

// The home page, /servicios, /industrias and the industry pages as staff published them (issue 16
// §1, docs/decisions/0048): the `inicio`, `servicios` and `industrias` records of the content store,
// read from its live cache. Records with `publicado: false` never reach a page (publishedRecords
// leaves them out); long texts are rendered here to sanitized HTML, with their library images.

export interface ServiceCard {
  slug: string;
  name: string;
  summary: string;
  picture: PagePicture | null;
}

export interface HomePage {
  headline: string;
  subheadline: string;
  figures: Inicio["cifras"];
  steps: Inicio["pasos"];
  reasons: Inicio["razones"];
  hero: PagePicture | null;
  services: ServiceCard[];
  industries: { slug: string; name: string; path: string }[];
}

export async function getHomePage(): Promise<HomePage> {
  const [home, services, industries] = await Promise.all([singleton<Inicio>(inicio), publishedRecords<Servicio>(servicios), publishedRecords<Industria>(industrias)]);
  // The home record is a singleton seeded on the first start and cannot be deleted.
  if (!home) throw new Error("The home page's content (inicio) has not been loaded.");
  const images = await libraryImagesOf([home.data, ...services.map((record) => record.data)]);
  return {
    headline: home.data.titular,
    subheadline: home.data.subtitular,
    figures: home.data.cifras,
    steps: home.data.pasos,
    reasons: home.data.razones,
    hero: heroPicture(home.data.imagen, images),
    services: services.map(({ data }) => ({ slug: data.slug, name: data.nombre, summary: data.resumen, picture: servicePicture(data, images) })),
    industries: industries.map(({ data }) => ({ slug: data.slug, name: data.nombre, path: industryPath(data.slug) })),
  };
}

export interface ServiceSection extends ServiceCard {
  /** The name inside "Cotizar …". */
  nameInSentence: string;
  descriptionHtml: string;
  capabilities: string[];
  leadTime: string;
}

/** The published services of /servicios, in staff's order. */
export async function listServiceSections(): Promise<ServiceSection[]> {
  const records = await publishedRecords<Servicio>(servicios);
  const data = records.map((record) => record.data);
  const [images, options] = await Promise.all([libraryImagesOf(data), siteRichTextOptions(...data.map((service) => service.descripcion))]);
  return data.map((service) => ({
    slug: service.slug,
    name: service.nombre,
    nameInSentence: serviceNameInSentence(service.nombre),
    summary: service.resumen,
    descriptionHtml: renderRichText(service.descripcion, options),
    capabilities: [...service.capacidades],
    leadTime: service.plazo,
    picture: servicePicture(service, images),
  }));
}

export interface IndustryCard {
  slug: string;
  name: string;
  summary: string;
  sectorPhrase: string;
  path: string;
  picture: PagePicture | null;
}

/** The published industries of /industrias. */
export async function listIndustryCards(): Promise<IndustryCard[]> {
  const records = await publishedRecords<Industria>(industrias);
  const images = await libraryImagesOf(records.map((record) => record.data));
  return records.map(({ data }) => ({
    slug: data.slug,
    name: data.nombre,
    summary: data.resumen,
    sectorPhrase: data.frase_sector,
    path: industryPath(data.slug),
    picture: industryPicture(data, images),
  }));
}

export interface IndustryPage {
  slug: string;
  name: string;
  /** The page's title for search engines and the browser tab. */
  title: string;
  description: string;
  headline: string;
  introHtml: string;
  projectPhrase: string;
  sectorPhrase: string;
  challenges: Industria["retos"];
  /** The services it names that are published, with their names as /servicios shows them. */
  services: { slug: string; name: string; text: string }[];
  materials: string[];
  standards: string[];
  example: { title: string; text: string; figures: string[] };
  picture: PagePicture | null;
  drawing: SiteDrawing | null;
  /** The other published industries, for the links at the foot of the page. */
  others: { slug: string; name: string; path: string }[];
}

/** A published industry by slug, whatever its case (the page redirects to the record's own); null when there is none. */
export async function getIndustryPage(slug: string): Promise<IndustryPage | null> {
  const record = await publishedRecord<Industria>(industrias, slug);
  if (!record) return null;
  const industry = record.data;
  const [services, all, images, options] = await Promise.all([
    publishedRecords<Servicio>(servicios),
    publishedRecords<Industria>(industrias),
    libraryImagesOf([industry]),
    siteRichTextOptions(industry.introduccion),
  ]);
  const serviceNames = new Map(services.map(({ data }) => [data.slug.toLowerCase(), data]));
  const [example] = industry.proyecto;
  return {
    slug: industry.slug,
    name: industry.nombre,
    // «Industria Industrial» read badly: the sector as staff write it mid-sentence («el sector médico»).
    title: industry.seo_titulo || `Diseño y manufactura para ${industry.frase_sector}`,
    description: industry.seo_descripcion || industry.resumen,
    headline: industry.titular,
    introHtml: renderRichText(industry.introduccion, options),
    projectPhrase: industry.frase_proyecto,
    sectorPhrase: industry.frase_sector,
    challenges: industry.retos,
    services: industry.servicios.flatMap((item) => {
      const service = serviceNames.get(item.servicio.toLowerCase());
      return service ? [{ slug: service.slug, name: service.nombre, text: item.texto }] : [];
    }),
    materials: [...industry.materiales],
    standards: [...industry.normas],
    example: example ? { title: example.titulo, text: example.texto, figures: [...example.cifras] } : { title: "", text: "", figures: [] },
    picture: industryPicture(industry, images),
    drawing: industryDrawing(industry.slug),
    others: all.filter(({ id }) => id !== record.id).map(({ data }) => ({ slug: data.slug, name: data.nombre, path: industryPath(data.slug) })),
  };
}

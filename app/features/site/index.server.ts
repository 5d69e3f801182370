// The public module of the site feature (content pages): the only file another feature, the start-up
// wiring or the record API imports.
export { siteContentCollections } from "./content-collections/all-collections";
export { seedSiteImagery } from "./media/media-seed.server";
export { MEDIA_SEED_FAILED } from "./media/media-seed-log";
export { mediosCollection, mediosFiles } from "./media/media-records.server";
export { siteRichTextOptions } from "./rich-text.server";
export { getPublicSiteFacts, getSiteFacts, type PublicSiteFacts, type SiteFacts } from "./site-facts.server";

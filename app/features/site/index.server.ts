// The public module of the site feature (content pages): the only file another feature, the start-up
// wiring or the record API imports.
export { siteContentCollections } from "./content-collections/all-collections";
export { seedSiteImagery } from "./media/media-seed.server";

// The public module of the catalogue feature: the only file another feature, the start-up wiring or
// the record API imports.
export { getProductsForCart, type CartProduct } from "./cart-products.server";
export { listActiveProductSlugs } from "./product-page.server";
export { productosCollection } from "./record-collection.server";
export { productosFiles } from "./record-files.server";
export { seedCatalogue } from "./seed.server";
export { seedDemoModels } from "./cad/model-rows.server";
export { startModelJob } from "./cad/model-job.server";
export { getModelFile } from "./cad/model-files.server";
export type { PartFinish, PartSpec } from "./cad/models";

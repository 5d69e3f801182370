// The public module of the catalogue feature: the only file another feature, the start-up wiring or
// the record API imports.
export { getProductsForCart, listActiveProductSlugs, type CartProduct } from "./products.server";
export { seedCatalogue } from "./seed.server";

import { count } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { products } from "~/db/schema/catalogue";
import { IVA_BP, priceWithIva } from "~/lib/money";
import { DEMO_PRODUCTS } from "./demo-products.server";
import { buildSearchDocument } from "./search";

// Seeds the demo catalogue (demo-products.server.ts) only while the products table is empty, so
// staff edits and deletions are never undone.

/** The net price (centavos) whose IVA-included price is exactly `gross`; the demo prices read naturally with IVA. */
export function netForGross(gross: number, ivaBp = IVA_BP): number {
  const estimate = Math.floor((gross * 10_000) / (10_000 + ivaBp));
  for (let net = estimate - 2; net <= estimate + 2; net += 1) if (priceWithIva(net, ivaBp) === gross) return net;
  throw new Error(`No net price gives exactly ${gross} centavos with IVA`);
}

/** Inserts the demo catalogue when there are no products at all; returns how many were added. */
export async function seedCatalogue(): Promise<number> {
  const [existing] = await getDb().select({ n: count() }).from(products);
  if (Number(existing?.n ?? 0) > 0) return 0;
  const inserted = await getDb()
    .insert(products)
    .values(
      DEMO_PRODUCTS.map((item) => ({
        slug: item.slug,
        sku: item.sku,
        name: item.name,
        category: item.category,
        shortDescription: item.shortDescription,
        description: item.description,
        priceCentavos: netForGross(item.grossCentavos),
        ivaBp: IVA_BP,
        unit: item.unit,
        stock: item.stock,
        minOrder: item.minOrder,
        active: true,
        searchDocument: buildSearchDocument(item),
      })),
    )
    // Two processes starting at once on one PostgreSQL: the second adds nothing.
    .onConflictDoNothing()
    .returning({ id: products.id });
  return inserted.length;
}

import type { QuoteLine } from "~/db/schema/quotes";

// Shapes of the quotes feature that the browser needs too (components, pages): the priced line as
// stored, and who acts on a quote. Type-only, so nothing of the database ships to the browser.

export type { QuoteLine };

/** Who does something to a quote: a staff member, a customer, or the system (id null). */
export interface Actor {
  id: string | null;
  name: string;
}

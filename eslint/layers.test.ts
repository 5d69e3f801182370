import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The floor plan is a lint rule: these run the project's real ESLint configuration on code placed
// at real paths and check that a forbidden arrow fails `npm run lint` and an allowed one passes.

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === "forja/layers").map((message) => message.message);
}

const uses = (source: string) => `import * as m from "${source}";\nexport const used = m;\n`;

describe("forja/layers", () => {
  it("refuses a feature reaching into another feature's internals", async () => {
    const errors = await layerErrors("app/features/orders/example.server.ts", uses("~/features/quotes/quotes.server"));
    expect(errors).toEqual([expect.stringContaining('through its public module: import "~/features/quotes/index.server"')]);
  });

  it("refuses the same arrow written as a relative path", async () => {
    const errors = await layerErrors("app/features/orders/example.server.ts", uses("../quotes/quotes.server"));
    expect(errors).toHaveLength(1);
  });

  it("allows another feature's public module and the feature's own files", async () => {
    expect(await layerErrors("app/features/orders/example.server.ts", uses("~/features/catalogue/index.server"))).toEqual([]);
    expect(await layerErrors("app/features/orders/example.server.ts", uses("./cart.server"))).toEqual([]);
    expect(await layerErrors("app/features/orders/example.server.ts", uses("~/services/mail/outbox.server"))).toEqual([]);
  });

  it("refuses arrows that run back up", async () => {
    expect(await layerErrors("app/services/mail/example.server.ts", uses("~/features/orders/index.server"))).toEqual([
      expect.stringContaining("Services never import a feature"),
    ]);
    expect(await layerErrors("app/lib/example.ts", uses("~/services/mail/outbox.server"))).toEqual([expect.stringContaining("app/lib is cross-cutting")]);
    expect(await layerErrors("app/db/example.server.ts", uses("~/features/orders/index.server"))).toEqual([expect.stringContaining("app/db imports only db and lib")]);
    expect(await layerErrors("app/features/orders/example.server.ts", uses("~/routes/checkout/carrito"))).toEqual([expect.stringContaining("Nothing imports from app/routes")]);
  });

  it("keeps shared components free of features and feature components free of the database", async () => {
    expect(await layerErrors("app/components/layout/example.tsx", uses("~/features/orders/components/cart-link"))).toEqual([
      expect.stringContaining("Shared components import no feature"),
    ]);
    expect(await layerErrors("app/features/quotes/components/example.tsx", `import type { QuoteStatus } from "~/db/schema/quotes";\nexport type S = QuoteStatus;\n`)).toEqual([
      expect.stringContaining("Feature components never import the database"),
    ]);
  });

  it("lets the start-up reach features only through their public modules", async () => {
    expect(await layerErrors("server/example.ts", uses("~/features/orders/cart.server"))).toEqual([expect.stringContaining("public module")]);
    expect(await layerErrors("server/example.ts", uses("~/features/orders/index.server"))).toEqual([]);
  });

  it("leaves tests free to assemble real parts", async () => {
    expect(await layerErrors("app/features/orders/example.server.test.ts", uses("~/features/accounts/accounts.server"))).toEqual([]);
  });
});

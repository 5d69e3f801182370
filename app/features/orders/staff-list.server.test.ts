import { describe, expect, it, vi } from "vitest";

// The staff's table of orders on a real database: filters by status, Mexico City days and search.

const dataDir = await vi.hoisted(async () => (await import("../../../tests/support/test-env")).isolateTestEnv("staff-orders"));

import { anOrder, aProduct, clearBeforeEach, insertOrderPeople, staff } from "../../../tests/support/orders-fixtures";
import { useTestFileDatabase } from "../../../tests/support/test-file-database";
import { parseOrderFilters } from "./filters";
import { allowedTransitions } from "./states";
import { getOrderDetail } from "./staff-detail.server";
import { listOrders } from "./staff-list.server";
import { changeOrderStatus } from "./status-commands.server";

useTestFileDatabase(dataDir, insertOrderPeople);
clearBeforeEach();

describe("listOrders", () => {
  it("filters by status, date range (Mexico City days) and search on number, name, email and RFC", async () => {
    const product = await aProduct({ stock: 50 });
    const march = await anOrder(product.id, { now: new Date("2026-03-02T05:30:00Z"), values: { name: "Carlos Peña", email: "compras@acme.mx" } }); // 1 Mar, 23:30 in CDMX
    const april = await anOrder(product.id, {
      now: new Date("2026-04-15T17:00:00Z"),
      values: { requiereFactura: true, rfc: "EKU9003173C9", razonSocial: "ESCUELA KEMPER URGATE", regimenFiscal: "601", usoCfdi: "G03", codigoPostalFiscal: "26015" },
    });
    await changeOrderStatus({ orderId: april.orderId, to: "pagado", actor: staff });

    const numbers = async (query: string) => (await listOrders(parseOrderFilters(new URLSearchParams(query)))).rows.map((row) => row.number);
    expect(await numbers("")).toEqual([april.number, march.number]);
    expect(await numbers("estado=pagado")).toEqual([april.number]);
    expect(await numbers("estado=pendiente_pago")).toEqual([march.number]);
    expect(await numbers("desde=2026-03-01&hasta=2026-03-01")).toEqual([march.number]);
    expect(await numbers("desde=2026-03-02")).toEqual([april.number]);
    expect(await numbers("q=eku9003")).toEqual([april.number]);
    expect(await numbers("q=Peña")).toEqual([march.number]);
    expect(await numbers("q=acme.mx")).toEqual([march.number]);
    expect(await numbers(`q=${march.number}`)).toEqual([march.number]);
    expect(await numbers("q=100%25")).toEqual([]);
    // Junk in the URL is ignored rather than failing the page.
    expect(await numbers("estado=perdido&desde=ayer&pagina=-3")).toEqual([april.number, march.number]);
    const listed = await listOrders(parseOrderFilters(new URLSearchParams("")));
    expect(listed).toMatchObject({ total: 2, pages: 1 });
    expect(listed.rows[0]).toMatchObject({ rfc: "EKU9003173C9", status: "pagado" });

    const detail = await getOrderDetail(april.orderId);
    expect(detail && allowedTransitions(detail.order)).toEqual(["en_preparacion", "cancelado"]);
    expect(await getOrderDetail("nada")).toBeNull();
  });
});

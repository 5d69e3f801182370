import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import type { RecordFieldMap } from "~/db/record-filter.server";
import { orders, type OrderStatus } from "~/db/schema/orders";
import { notFoundResult, ok, type Result } from "~/lib/result";
import { staffOrCustomerRule, type RecordAuth, type RecordCollection, type RecordData, type RecordWriteInput, type RecordWriter } from "~/services/records/collection.server";
import { asFieldFailure, FIELD_CODES, hasField, isStaffWriter, recordFieldFailure, refuseWrite, textField } from "~/services/records/writes.server";
import { changeOrderStatus } from "./status-commands.server";
import { tableCollection } from "~/services/records/table-collection.server";
import { isUuid } from "./order-records.server";
import { orderVisibleToCustomer } from "./visibility.server";

// Orders as the record API's `pedidos` collection (docs/decisions/0014; writes: 0015): staff see every
// order (/admin/pedidos), a customer their account's (the rule of /cuenta/pedidos,
// visibility.server.ts), a guest none — a guest order is readable only from the browser that
// placed it, through its cookie, which the API does not carry. As PocketBase applies a rule as a
// filter, a guest gets an empty list and a 404 for a record. `total` is the order's total in pesos,
// IVA included, as the order pages show it; `cliente` the owning account ("" for a guest order).

/** Allow-list for `filter` and `sort`: API name → column or expression, with its type. */
export const PEDIDOS_FIELDS: RecordFieldMap = {
  id: { column: sql`${orders.id}::text`, type: "text" },
  created: { column: orders.createdAt, type: "date" },
  updated: { column: orders.updatedAt, type: "date" },
  numero: { column: orders.number, type: "text" },
  estado: { column: orders.status, type: "text" },
  total: { column: sql`${orders.totalCentavos}::numeric / 100`, type: "number" },
  cliente: { column: orders.userId, type: "text" },
};

const recordColumns = {
  id: orders.id,
  created: orders.createdAt,
  updated: orders.updatedAt,
  numero: orders.number,
  estado: orders.status,
  totalCentavos: orders.totalCentavos,
  cliente: orders.userId,
};

const selectRecords = () => getDb().select(recordColumns).from(orders);
type OrderRecordRow = Awaited<ReturnType<typeof selectRecords>>[number];

function toRecord({ totalCentavos, cliente, ...row }: OrderRecordRow): RecordData {
  return { ...row, total: totalCentavos / 100, cliente: cliente ?? "" };
}

/** The rule: staff see every order, a customer their account's, a guest none. */
const visibleTo = (auth: RecordAuth) => staffOrCustomerRule(auth, orderVisibleToCustomer);

const readCollection = tableCollection<OrderRecordRow>({
  id: "pbc_pedidos",
  name: "pedidos",
  relations: { cliente: "users" },
  fields: PEDIDOS_FIELDS,
  defaultSort: "-created",
  table: orders,
  idColumn: orders.id,
  isId: isUuid,
  select: () => selectRecords().$dynamic(),
  rule: visibleTo,
  toRecord: toRecord,
});

/**
 * Writes (docs/decisions/0015): staff move an order's `estado` as /admin/pedidos does, through
 * changeOrderStatus (the table in states.ts; the customer's email, the stock returned on a
 * cancellation and the event all in the same transaction), with an optional `nota` for the event.
 * Other fields are ignored; nobody creates (that is checkout) or deletes an order.
 */
async function updatePedido(id: string, input: RecordWriteInput, writer: RecordWriter): Promise<Result<string>> {
  if (!isStaffWriter(writer)) return refuseWrite(writer);
  const current = await readCollection.view(id, { collection: "_superusers", id: "" });
  if (!current) return notFoundResult();
  const estado = textField(input, "estado");
  if (hasField(input, "estado") && estado !== current.estado) {
    if (!estado) return recordFieldFailure({ estado: { code: FIELD_CODES.required, message: "Elija el estado nuevo del pedido." } });
    const note = textField(input, "nota")?.trim().slice(0, 1000) || null;
    const moved = await changeOrderStatus({ orderId: id, to: estado as OrderStatus, actor: { id: writer.auth.id, name: writer.name }, note });
    if (!moved.ok) return asFieldFailure(moved, "estado", FIELD_CODES.state);
  }
  return ok(id);
}

export const pedidosCollection: RecordCollection = { ...readCollection, update: updatePedido };

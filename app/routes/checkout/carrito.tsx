import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/carrito";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { PageIntro } from "~/components/ui/page-intro";
import { loadCart, type CartOwner } from "~/features/orders/cart.server";
import { addToCart, removeFromCart, setCartItemQuantity } from "~/features/orders/cart-commands.server";
import { TotalsList } from "~/features/orders/components/totals-list";
import { CartActionSchema, type CartAction } from "~/features/orders/forms";
import { readCartSession, resolveCartOwner, takeCartFlash, writeCartFlash } from "~/features/orders/http.server";
import { formatMoney } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, type Result } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { formatUnitQuantity, perUnit } from "~/lib/units";
import { readFormData } from "~/services/security/form-guard.server";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Carrito", description: "Revise las piezas de su pedido antes de pagar.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await readCartSession(requestMeta(request, context));
  const flash = takeCartFlash(request, session.headers);
  const cart = await loadCart(session.owner);
  cart.notices.unshift(...session.notices);
  return data({ cart, flash, signedIn: !!session.user }, { headers: session.headers });
}

function runCartAction(owner: CartOwner, action: CartAction): Promise<Result<{ message: string }>> {
  if (action.intent === "agregar") return addToCart(owner, action.productId, action.quantity);
  if (action.intent === "actualizar") return setCartItemQuantity(owner, action.productId, action.quantity);
  return removeFromCart(owner, action.productId);
}

// agregar (from a product page), actualizar and quitar; the outcome is shown on /carrito (post → redirect → get)
// through a short cookie, with the cart cookies this request set.
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const parsed = CartActionSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) {
    const headers = new Headers();
    writeCartFlash(headers, { ok: false, message: parsed.error.issues[0]?.message ?? "No entendimos ese cambio al carrito." });
    throw redirect("/carrito", { headers });
  }
  const resolved = await resolveCartOwner(requestMeta(request, context), { create: parsed.data.intent === "agregar" });
  if (!resolved.ok) {
    const headers = new Headers();
    writeCartFlash(headers, { ok: false, message: failureMessages(resolved).formErrors.join(" ") });
    throw redirect("/carrito", { headers });
  }
  const { owner, headers, notices } = resolved.value;
  const result = owner ? await runCartAction(owner, parsed.data) : null;
  const message = !result ? "Su carrito está vacío." : result.ok ? result.value.message : failureMessages(result).formErrors.join(" ");
  writeCartFlash(headers, { ok: !!result?.ok, message: [...notices, message].join(" ") });
  throw redirect("/carrito", { headers });
}

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const { cart, flash } = loaderData;
  const empty = cart.lines.length === 0;
  return (
    <>
      <PageIntro eyebrow="Compra" title="Su carrito" lead={empty ? "Todavía no tiene piezas en su carrito." : "Precios en MXN con IVA incluido, calculados con el inventario de este momento."} />
      <div className="container-page py-10">
        <div className="space-y-3" aria-live="polite">
          {flash ? flash.ok ? <FormNotice>{flash.message}</FormNotice> : <FormErrors errors={[flash.message]} /> : null}
          {cart.notices.length ? <FormErrors errors={cart.notices} /> : null}
        </div>

        {empty ? (
          <div className="mt-6 rounded-lg border border-dashed border-acero-300 p-8 text-acero-700">
            <p>Encuentre soportes, bridas, bujes, gabinetes y refacciones listos para enviar en el catálogo.</p>
            <div className="mt-4 flex flex-wrap gap-3">
              <AppLink to="/catalogo" className="btn-primary">
                Ver el catálogo
              </AppLink>
              <AppLink to="/cotiza" className="btn-secondary">
                Cotizar una pieza a la medida
              </AppLink>
            </div>
          </div>
        ) : (
          <div className="mt-6 grid grid-cols-1 gap-8 lg:grid-cols-3">
            <ul className="h-fit divide-y divide-acero-200 rounded-lg border border-acero-200 lg:col-span-2" aria-label="Productos en su carrito">
              {cart.lines.map((line) => (
                <li key={line.productId} className="flex flex-wrap gap-4 p-4 sm:flex-nowrap" data-testid="cart-line">
                  {line.image ? (
                    // Decorative next to the product's name; a fixed square box, so nothing shifts.
                    <img src={line.image} alt="" width={80} height={80} loading="lazy" className="size-20 shrink-0 rounded-md border border-acero-200 bg-acero-50 object-cover" />
                  ) : (
                    <div aria-hidden="true" className="grid size-20 shrink-0 place-items-center rounded-md bg-acero-100 text-2xl font-bold text-acero-400">
                      {line.name.charAt(0)}
                    </div>
                  )}
                  <div className="min-w-0 flex-1">
                    <AppLink to={`/catalogo/${line.slug}`} className="font-semibold text-acero-900 underline-offset-2 hover:underline">
                      {line.name}
                    </AppLink>
                    <p className="text-sm text-acero-600">SKU {line.sku}</p>
                    <p className="mt-1 text-sm text-acero-800">
                      {formatMoney(line.unitPriceWithIvaCentavos)} {perUnit(line.unit)}, IVA incluido
                    </p>
                    <p className="text-xs text-acero-600">
                      {line.minOrder > 1 ? `Pedido mínimo ${formatUnitQuantity(line.minOrder, line.unit)}. ` : ""}
                      {formatUnitQuantity(line.stock, line.unit)} en existencia.
                    </p>
                    <div className="mt-3 flex flex-wrap items-end gap-3">
                      <Form method="post" className="flex items-end gap-2">
                        <input type="hidden" name="productId" value={line.productId} />
                        <div>
                          <label htmlFor={`cantidad-${line.productId}`} className="block text-xs font-semibold text-acero-800">
                            Cantidad
                          </label>
                          <input
                            id={`cantidad-${line.productId}`}
                            name="quantity"
                            type="number"
                            inputMode="numeric"
                            min={line.minOrder}
                            max={line.stock}
                            step={1}
                            defaultValue={line.quantity}
                            key={line.quantity}
                            className="mt-1 w-24 rounded-md border border-acero-300 px-2 py-1.5 text-base"
                          />
                        </div>
                        <button type="submit" name="intent" value="actualizar" className="btn-secondary px-3 py-1.5 text-sm">
                          Actualizar
                        </button>
                      </Form>
                      <Form method="post">
                        <input type="hidden" name="productId" value={line.productId} />
                        <button type="submit" name="intent" value="quitar" className="px-2 py-1.5 text-sm font-semibold text-forja-700 underline underline-offset-2">
                          Quitar<span className="sr-only"> {line.name}</span>
                        </button>
                      </Form>
                    </div>
                  </div>
                  <p className="w-full text-right font-semibold text-acero-900 tabular-nums sm:w-32">{formatMoney(line.totalCentavos)}</p>
                </li>
              ))}
            </ul>
            <aside aria-labelledby="resumen" className="h-fit rounded-lg border border-acero-200 bg-acero-50 p-6">
              <h2 id="resumen" className="text-lg font-semibold text-acero-900">
                Resumen
              </h2>
              <TotalsList totals={cart.totals} className="mt-4" />
              <p className="mt-2 text-xs text-acero-600">IVA calculado por producto. El envío, si lo elige, se cotiza aparte.</p>
              <AppLink to="/checkout" className="btn-primary mt-6 w-full">
                Continuar al pago
              </AppLink>
              <AppLink to="/catalogo" className="mt-3 block text-center text-sm font-semibold text-forja-700 underline underline-offset-2">
                Seguir comprando
              </AppLink>
            </aside>
          </div>
        )}
      </div>
    </>
  );
}

import { data, redirect } from "react-router";
import type { Route } from "./+types/checkout";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors } from "~/components/ui/form";
import { PageIntro } from "~/components/ui/page-intro";
import { getCheckoutPage, submitCheckout } from "~/features/orders/checkout.server";
import { CheckoutForm } from "~/features/orders/components/checkout-form";
import { TotalsList } from "~/features/orders/components/totals-list";
import { quantityWithUnit } from "~/features/orders/forms";
import { formatMoney } from "~/lib/format";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Finalizar compra", description: "Datos de entrega, facturación CFDI y pago de su pedido.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = await getCheckoutPage(requestMeta(request, context));
  if (page.cart.lines.length === 0) throw redirect("/carrito", { headers: page.headers });
  const { headers, ...rest } = page;
  return data(rest, { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const result = await submitCheckout(requestMeta(request, context), await request.formData());
  if (result.ok) throw redirect(`/checkout/confirmacion/${result.number}`, { headers: result.headers });
  return data({ result: result.result, formToken: result.formToken }, { status: result.status, headers: result.headers });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { cart } = loaderData;
  return (
    <>
      <PageIntro eyebrow="Compra" title="Finalizar compra" lead="Confirme la entrega, los datos de facturación CFDI y cómo pagará. Precios con IVA incluido." />
      <div className="container-page grid gap-10 py-10 lg:grid-cols-3">
        <div className="lg:col-span-2">
          {cart.notices.length ? (
            <div className="mb-6">
              <FormErrors errors={cart.notices} />
            </div>
          ) : null}
          <CheckoutForm
            // A new token (after an expired page) restarts the form with the person's values.
            key={actionData?.formToken ?? loaderData.formToken}
            formToken={actionData?.formToken ?? loaderData.formToken}
            lastResult={actionData?.result}
            defaults={loaderData.defaults}
            signedIn={loaderData.signedIn}
            hasSavedInvoice={loaderData.hasSavedInvoice}
            totalCentavos={cart.totals.totalCentavos}
          />
        </div>
        <aside aria-labelledby="su-pedido" className="h-fit rounded-lg border border-acero-200 bg-acero-50 p-6 lg:sticky lg:top-24">
          <h2 id="su-pedido" className="text-lg font-semibold text-acero-900">
            Su pedido
          </h2>
          <ul className="mt-4 divide-y divide-acero-200 text-sm">
            {cart.lines.map((line) => (
              <li key={line.productId} className="flex justify-between gap-4 py-2">
                <span className="text-acero-800">
                  {line.name}
                  <span className="block text-xs text-acero-600">{quantityWithUnit(line.quantity, line.unit)}</span>
                </span>
                <span className="text-acero-900 tabular-nums">{formatMoney(line.totalCentavos)}</span>
              </li>
            ))}
          </ul>
          <TotalsList totals={cart.totals} className="mt-4 border-t border-acero-200 pt-4" />
          <AppLink to="/carrito" className="mt-4 inline-block text-sm font-semibold text-forja-700 underline underline-offset-2">
            Cambiar cantidades
          </AppLink>
        </aside>
      </div>
    </>
  );
}

import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Route } from "./+types/checkout";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors } from "~/components/ui/form";
import { PageIntro } from "~/components/ui/page-intro";
import { CHECKOUT_FORM, getCheckoutPage, issueCheckoutToken, placeCheckoutOrder } from "~/features/orders/checkout.server";
import { CheckoutForm } from "~/features/orders/components/checkout-form";
import { TotalsList } from "~/features/orders/components/totals-list";
import { CheckoutSchema } from "~/features/orders/forms";
import { grantOrderAccess, readCartSession } from "~/features/orders/http.server";
import { formatMoney } from "~/lib/format";
import { replyToFailure } from "~/lib/form-reply";
import { requestMeta } from "~/lib/request-meta";
import { invalid } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { formatUnitQuantity } from "~/lib/units";
import { useSiteFacts } from "../site/site-facts";
import { FORM_GUARD_MESSAGES, guardPublicForm, readFormData } from "~/services/security/form-guard.server";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Finalizar compra", description: "Datos de entrega, facturación CFDI y pago de su pedido.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await readCartSession(requestMeta(request, context));
  const page = await getCheckoutPage(session);
  if (page.cart.lines.length === 0) throw redirect("/carrito", { headers: session.headers });
  return data({ ...page, formToken: issueCheckoutToken() }, { headers: session.headers });
}

// Guard (honeypot and the page's one-time token; no rate limit here: the per-IP limit of orders is
// counted by placeCheckoutOrder after it has looked for the order of a resubmitted page), parse,
// place the order. A refused guard gives the form a fresh token; any later refusal keeps it, so the
// person can correct and confirm the same page.
export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readFormData(request);
  const parsed = parseWithZod(formData ?? new FormData(), { schema: CheckoutSchema });
  const refuse = (reply: ReturnType<typeof replyToFailure>, formToken: string, headers = new Headers()) => {
    for (const [name, value] of Object.entries(reply.headers)) headers.set(name, value);
    return data({ result: reply.result, formToken }, { status: reply.status, headers });
  };
  if (!formData) return refuse(replyToFailure(parsed, invalid(FORM_GUARD_MESSAGES.unreadable)), issueCheckoutToken());
  // tooFast is ignored on purpose: a returning customer with everything prefilled may confirm at once.
  const guard = await guardPublicForm(formData, { scope: "checkout", ip: meta.ip, token: { form: CHECKOUT_FORM } });
  if (!guard.ok) return refuse(replyToFailure(parsed, guard), issueCheckoutToken());
  const token = guard.value.token;
  if (parsed.status !== "success") return data({ result: parsed.reply(), formToken: token }, { status: 400 });

  const session = await readCartSession(meta);
  const placed = await placeCheckoutOrder({ checkout: parsed.value, owner: session.owner, userId: session.user?.id ?? null, token, ip: meta.ip });
  if (!placed.ok) return refuse(replyToFailure(parsed, placed), token, session.headers);
  const headers = grantOrderAccess(request, placed.value.number);
  for (const cookie of session.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  throw redirect(`/checkout/confirmacion/${placed.value.number}`, { headers });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { cart } = loaderData;
  const facts = useSiteFacts();
  return (
    <>
      <PageIntro eyebrow="Compra" title="Finalizar compra" lead="Confirme la entrega, los datos de facturación CFDI y cómo pagará. Precios con IVA incluido." />
      <div className="container-page grid grid-cols-1 gap-10 py-10 lg:grid-cols-3">
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
            plantLocality={facts.address.localityLine}
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
                  <span className="block text-xs text-acero-600">{formatUnitQuantity(line.quantity, line.unit)}</span>
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

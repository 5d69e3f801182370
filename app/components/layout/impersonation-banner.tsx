import { Form } from "react-router";

// While an admin sees the site as a customer (docs/decisions/0063): on every page, above everything,
// who they are seeing it as, whether changes are saved, and the way back to their own account.

type BannerProps = { ended: false; customerName: string; writable: boolean } | { ended: true };

export function ImpersonationBanner(props: BannerProps) {
  return (
    <div role="status" className="bg-amber-300 px-4 py-2 text-sm text-acero-950" data-testid="banner-vista-cliente">
      <Form method="post" action="/vista-cliente/terminar" reloadDocument className="mx-auto flex max-w-6xl flex-wrap items-center justify-center gap-x-3 gap-y-1">
        {props.ended ? (
          <span>Terminó el tiempo de la vista de cliente. Termínela para volver a entrar al panel.</span>
        ) : (
          <span>
            Está viendo el sitio como <strong>{props.customerName}</strong>.{" "}
            {props.writable ? "Los cambios que haga se guardan en su cuenta." : "Solo lectura: no se guardará ningún cambio."}
          </span>
        )}
        <button type="submit" className="rounded-md border border-acero-900 px-3 py-0.5 font-semibold hover:bg-amber-200">
          Terminar
        </button>
      </Form>
    </div>
  );
}

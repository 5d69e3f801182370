import { Form } from "react-router";
import { FormErrors, FormNotice, SubmitButton } from "~/components/ui/form";

// /quotes for an account whose email is not confirmed yet: quotes join an account only once its
// email is confirmed, so instead of "no quotes" this says why and resends the confirmation link
// (the route's "resend" intent calls the accounts feature's resendConfirmation, as /cuenta does).

export interface ConfirmEmailNoticeProps {
  email: string;
  /** The answer to the last resend, if any. */
  sent?: string | null;
  error?: string | null;
}

export function ConfirmEmailNotice({ email, sent, error }: ConfirmEmailNoticeProps) {
  return (
    <section aria-labelledby="confirme-su-correo" className="rounded-lg border-2 border-forja-600 bg-white p-6">
      <h2 id="confirme-su-correo" className="text-lg font-semibold text-acero-900">
        Confirme su correo para ver las cotizaciones que le enviamos
      </h2>
      <p className="mt-2 max-w-2xl text-acero-800">
        Por seguridad, las cotizaciones enviadas a <strong>{email}</strong> aparecen aquí en cuanto usted confirma esa dirección con el enlace que le
        mandamos por correo. Si no lo encuentra, revise la carpeta de correo no deseado o pida uno nuevo.
      </p>
      <div className="mt-4 space-y-3">
        {sent ? <FormNotice>{sent}</FormNotice> : null}
        <FormErrors errors={error ? [error] : undefined} id="reenviar-error" />
        <Form method="post">
          <SubmitButton intent="resend" pendingLabel="Enviando…" className="btn-primary">
            Reenviar correo de confirmación
          </SubmitButton>
        </Form>
      </div>
    </section>
  );
}

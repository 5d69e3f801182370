import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/confirmar-correo";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, SubmitButton, TextField } from "~/components/ui/form";
import { AuthCard } from "~/features/accounts/components/auth-card";
import { checkEmailChangeToken, confirmEmailChangeAndSignIn, emailChangeTokenMessage } from "~/features/accounts/email-change.server";
import { ConfirmEmailChangeSchema } from "~/features/accounts/forms";
import { signedInHeaders } from "~/features/accounts/guards.server";
import { formFailure } from "~/lib/form-reply";
import { readForm } from "~/lib/request-body";
import { requestMeta } from "~/lib/request-meta";
import { limited } from "~/lib/result";
import { formHeaders } from "~/lib/route-headers";
import { pageMeta } from "~/lib/seo";
import { consumeRateLimit, RATE_LIMITS, rateLimitMessage } from "~/services/security/rate-limit.server";

// The link of the email-change message lands here (docs/decisions/0062). The change needs the
// account's password too, so a link read by someone else is not enough; confirming ends every
// session of the account and opens a new one here, with the new email.

const HIDDEN = ["password"];

export const meta: Route.MetaFunction = () => pageMeta({ title: "Confirmar correo nuevo", description: "Confirme el correo nuevo de su cuenta de Forja.", noindex: true });

export const headers = formHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) return data({ token: "", newEmail: "", problem: "El enlace no está completo. Pida uno nuevo desde Mi cuenta." }, { status: 400 });
  const checked = await checkEmailChangeToken(token);
  if (!checked.ok) return data({ token: "", newEmail: "", problem: emailChangeTokenMessage(checked.problem) }, { status: 400 });
  return { token, newEmail: checked.claims.newEmail, problem: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readForm(request);
  const parsed = parseWithZod(formData, { schema: ConfirmEmailChangeSchema });
  if (parsed.status !== "success") return data({ result: parsed.reply({ hideFields: HIDDEN }) }, { status: 400 });
  // The record API's confirm-email-change shares this counter.
  const limit = await consumeRateLimit(`confirm-email-change:${meta.ip || "desconocida"}`, RATE_LIMITS.passwordReset);
  if (!limit.allowed) return formFailure(parsed, limited(rateLimitMessage(limit), limit.retryAfterSeconds), { hideFields: HIDDEN });
  const result = await confirmEmailChangeAndSignIn(meta, parsed.value);
  if (!result.ok) return formFailure(parsed, result, { hideFields: HIDDEN });
  throw redirect("/cuenta?correo=cambiado", { headers: signedInHeaders(result.value.headers) });
}

export default function ConfirmEmailChangePage({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ConfirmEmailChangeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  if (loaderData.problem) {
    return (
      <AuthCard title="No pudimos usar este enlace" lead={loaderData.problem}>
        <AppLink to="/cuenta" className="btn-primary w-full">
          Ir a mi cuenta
        </AppLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Confirme su correo nuevo"
      lead={`Su cuenta pasará a usar ${loaderData.newEmail}. Escriba su contraseña para confirmar el cambio; después entrará con el correo nuevo.`}
      footer={
        <p>
          ¿Olvidó su contraseña?{" "}
          <AppLink to="/recuperar" className="font-semibold text-forja-700 underline underline-offset-2">
            Restablézcala
          </AppLink>{" "}
          y vuelva a pedir el cambio.
        </p>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={[...(form.errors ?? []), ...(fields.token.errors ?? [])]} id={form.errorId} />
        <input type="hidden" name="token" value={loaderData.token} />
        <TextField field={fields.password} label="Contraseña de su cuenta" type="password" autoComplete="current-password" help="Por seguridad cerraremos las sesiones abiertas en otros dispositivos." />
        <SubmitButton pendingLabel="Confirmando…">Confirmar correo nuevo</SubmitButton>
      </Form>
    </AuthCard>
  );
}

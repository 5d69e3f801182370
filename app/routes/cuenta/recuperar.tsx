import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data } from "react-router";
import type { Route } from "./+types/recuperar";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { requestPasswordReset } from "~/features/accounts/password.server";
import { AuthCard } from "~/features/accounts/components/auth-card";
import { ForgotPasswordSchema } from "~/features/accounts/forms";
import { guardPublicForm } from "~/services/security/form-guard.server";
import { formFailure } from "~/lib/form-reply";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { formHeaders } from "~/lib/route-headers";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Recuperar contraseña", description: "Reciba un enlace para elegir una contraseña nueva.", noindex: true });

export const headers = formHeaders;
export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readForm(request);
  const parsed = parseWithZod(formData, { schema: ForgotPasswordSchema });
  if (parsed.status !== "success") return data({ result: parsed.reply(), sent: false }, { status: 400 });
  const guard = await guardPublicForm(formData, { scope: "password-reset", ip: meta.ip, rule: RATE_LIMITS.passwordReset });
  if (!guard.ok) return formFailure(parsed, guard, { extra: { sent: false } });
  await requestPasswordReset(parsed.value.email);
  // The same answer whether or not the email has an account.
  return { result: parsed.reply({ resetForm: true }), sent: true };
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard
      title="Recuperar contraseña"
      lead="Escriba el correo de su cuenta y le enviaremos un enlace para elegir una contraseña nueva."
      footer={
        <p>
          <AppLink to="/login" className="font-semibold text-forja-700 underline underline-offset-2">
            Volver a iniciar sesión
          </AppLink>
        </p>
      }
    >
      {actionData?.sent ? (
        <FormNotice>
          Si hay una cuenta con ese correo, en unos minutos recibirá un enlace para elegir una contraseña nueva. El enlace vence en una hora. Revise
          también su carpeta de correo no deseado.
        </FormNotice>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5">
        <FormErrors errors={form.errors} id={form.errorId} />
        <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" />
        <HoneypotField />
        <SubmitButton pendingLabel="Enviando…">Enviar enlace</SubmitButton>
      </Form>
    </AuthCard>
  );
}

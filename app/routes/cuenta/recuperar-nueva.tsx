import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/recuperar-nueva";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, SubmitButton, TextField } from "~/components/ui/form";
import { isPasswordResetTokenUsable, resetPassword } from "~/features/accounts/password.server";
import { AuthCard } from "~/features/accounts/components/auth-card";
import { signedInHeaders } from "~/features/accounts/guards.server";
import { ResetPasswordSchema } from "~/features/accounts/forms";
import { guardPublicForm } from "~/services/security/form-guard.server";
import { formFailure } from "~/lib/form-reply";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { requestMeta } from "~/lib/request-meta";
import { pageMeta } from "~/lib/seo";
import { formHeaders } from "~/lib/route-headers";
import { readForm } from "~/lib/request-body";

const HIDDEN = ["password", "passwordConfirm"];

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Contraseña nueva", description: "Elija una contraseña nueva para su cuenta de Forja.", noindex: true });

export const headers = formHeaders;
// The token is checked here without using it up: a used or expired link says so at once, with the
// way to ask for a new one, rather than after the new password is typed twice. The action still
// refuses it on its own (the link may expire while the page is open).
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: await isPasswordResetTokenUsable(token) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readForm(request);
  const parsed = parseWithZod(formData, { schema: ResetPasswordSchema });
  if (parsed.status !== "success") return data({ result: parsed.reply({ hideFields: HIDDEN }) }, { status: 400 });
  const guard = await guardPublicForm(formData, { scope: "password-reset", ip: meta.ip, rule: RATE_LIMITS.passwordReset });
  if (!guard.ok) return formFailure(parsed, guard, { hideFields: HIDDEN });
  const result = await resetPassword(meta, { token: parsed.value.token, password: parsed.value.password });
  if (!result.ok) return formFailure(parsed, result, { hideFields: HIDDEN });
  throw redirect("/cuenta?contrasena=restablecida", { headers: signedInHeaders(result.value.headers) });
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // A link without its token, or one already used or expired: say so at once, and offer a new one.
  if (!loaderData.token || !loaderData.usable) {
    return (
      <AuthCard
        title={loaderData.token ? "Enlace no válido" : "Enlace incompleto"}
        lead={
          loaderData.token
            ? "El enlace no es válido o ya venció. Cada enlace sirve una sola vez y vence en una hora; solicite uno nuevo."
            : "El enlace para restablecer su contraseña no está completo. Solicite uno nuevo."
        }
      >
        <AppLink to="/recuperar" className="btn-primary w-full">
          Solicitar un enlace nuevo
        </AppLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Elija una contraseña nueva"
      lead="Al guardarla se cerrarán las sesiones abiertas en otros dispositivos."
      footer={
        <p>
          ¿El enlace venció?{" "}
          <AppLink to="/recuperar" className="font-semibold text-forja-700 underline underline-offset-2">
            Solicite uno nuevo
          </AppLink>
        </p>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="token" value={loaderData.token} />
        <TextField field={fields.password} label="Contraseña nueva" type="password" autoComplete="new-password" help="Al menos 8 caracteres. Evite contraseñas comunes." />
        <TextField field={fields.passwordConfirm} label="Repita la contraseña nueva" type="password" autoComplete="new-password" />
        <SubmitButton pendingLabel="Guardando…">Guardar y entrar</SubmitButton>
      </Form>
    </AuthCard>
  );
}

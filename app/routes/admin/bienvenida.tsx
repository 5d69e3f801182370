import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/bienvenida";
import { FormErrors, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { adminSignInCookie, signedInHeaders } from "~/features/accounts/guards.server";
import { ResetPasswordSchema } from "~/features/accounts/forms";
import { resetPassword } from "~/features/accounts/password.server";
import { findStaffInvitation } from "~/features/accounts/staff-members.server";
import { formFailure } from "~/lib/form-reply";
import { readForm } from "~/lib/request-body";
import { requestMeta } from "~/lib/request-meta";
import { invalid } from "~/lib/result";
import { formHeaders } from "~/lib/route-headers";
import { pageMeta } from "~/lib/seo";
import { guardPublicForm } from "~/services/security/form-guard.server";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";

// The link of a staff invitation (/admin/personal): the invitee chooses a password and lands in
// /admin. The token is a one-time password-reset token (docs/decisions/0040).

const HIDDEN = ["password", "passwordConfirm"];
const EXPIRED = "Este enlace de invitación ya se usó o venció. Pida una invitación nueva a quien administra el panel.";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Invitación al panel", description: "Elija su contraseña para entrar al panel de Forja.", noindex: true });

export const headers = formHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, invitation: await findStaffInvitation(token) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readForm(request);
  const parsed = parseWithZod(formData, { schema: ResetPasswordSchema });
  if (parsed.status !== "success") return data({ result: parsed.reply({ hideFields: HIDDEN }) }, { status: 400 });
  const guard = await guardPublicForm(formData, { scope: "staff-invitation", ip: meta.ip, rule: RATE_LIMITS.passwordReset });
  if (!guard.ok) return formFailure(parsed, guard, { hideFields: HIDDEN });
  if (!(await findStaffInvitation(parsed.value.token))) return formFailure(parsed, invalid(EXPIRED), { hideFields: HIDDEN });
  const result = await resetPassword(meta, { token: parsed.value.token, password: parsed.value.password });
  if (!result.ok) return formFailure(parsed, result, { hideFields: HIDDEN });
  const headers = signedInHeaders(result.value.headers);
  headers.append("Set-Cookie", adminSignInCookie());
  throw redirect("/admin", { headers });
}

export default function StaffWelcomePage({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const { invitation, token } = loaderData;
  return (
    <main id="contenido" className="grid min-h-screen place-items-center bg-acero-900 p-4">
      <div className="w-full max-w-md rounded-lg bg-white p-8 shadow-xl">
        <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">Forja · Administración</p>
        {invitation ? (
          <>
            <h1 className="mt-2 text-2xl font-bold text-acero-900">Le damos la bienvenida, {invitation.name}</h1>
            <p className="mt-2 text-sm text-acero-700">
              Elija la contraseña de su cuenta del personal (<strong className="break-all">{invitation.email}</strong>). Con ella entrará al panel desde{" "}
              <a href="/admin/login" className="font-semibold text-forja-700 underline underline-offset-2">
                el acceso del personal
              </a>
              .
            </p>
            <Form method="post" {...getFormProps(form)} className="mt-6 space-y-5">
              <FormErrors errors={form.errors} id={form.errorId} />
              <input type="hidden" name="token" value={token} />
              <TextField field={fields.password} label="Contraseña" type="password" autoComplete="new-password" help="Al menos 8 caracteres. Evite contraseñas comunes." />
              <TextField field={fields.passwordConfirm} label="Repita la contraseña" type="password" autoComplete="new-password" />
              <HoneypotField />
              <SubmitButton pendingLabel="Guardando…">Guardar y entrar al panel</SubmitButton>
            </Form>
          </>
        ) : (
          <>
            <h1 className="mt-2 text-2xl font-bold text-acero-900">Enlace no válido</h1>
            <p className="mt-2 text-sm text-acero-700">{EXPIRED}</p>
            <p className="mt-6 text-sm">
              <a href="/admin/login" className="font-semibold text-forja-700 underline underline-offset-2">
                Ir al acceso del personal
              </a>
            </p>
          </>
        )}
      </div>
    </main>
  );
}

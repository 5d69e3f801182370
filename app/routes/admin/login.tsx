import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/login";
import { FormErrors, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { clearAdminMarker } from "~/lib/admin-marker";
import { adminSignInCookie, signedInHeaders } from "~/features/accounts/guards.server";
import { LoginSchema } from "~/features/accounts/forms";
import { signInStaff } from "~/features/accounts/sign-in.server";
import { guardPublicForm } from "~/services/security/form-guard.server";
import { formFailure } from "~/lib/form-reply";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { requestMeta } from "~/lib/request-meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { pageMeta } from "~/lib/seo";
import { formHeaders } from "~/lib/route-headers";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Acceso del personal", description: "Acceso al panel de administración de Forja.", noindex: true });

function adminTarget(value: FormDataEntryValue | string | null | undefined): string {
  const target = safeRedirect(value, "/admin");
  return target.startsWith("/admin") && !target.startsWith("/admin/login") ? target : "/admin";
}

// No redirect for a signed-in staff member: the admin layout's browser guard sends people here when
// the localStorage marker is missing, and bouncing them back to /admin would loop forever.

export const headers = formHeaders;
export function loader({ request }: Route.LoaderArgs) {
  return { redirectTo: adminTarget(new URL(request.url).searchParams.get("redirectTo")) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readForm(request);
  const parsed = parseWithZod(formData, { schema: LoginSchema });
  if (parsed.status !== "success") return data({ result: parsed.reply({ hideFields: ["password"] }) }, { status: 400 });
  const guard = await guardPublicForm(formData, { scope: "admin-login", ip: meta.ip, rule: RATE_LIMITS.adminSignIn });
  if (!guard.ok) return formFailure(parsed, guard, { hideFields: ["password"] });
  const result = await signInStaff(meta, parsed.value);
  if (!result.ok) return formFailure(parsed, result, { hideFields: ["password"] });
  const headers = signedInHeaders(result.value.headers);
  headers.append("Set-Cookie", adminSignInCookie());
  throw redirect(adminTarget(parsed.value.redirectTo), { headers });
}

export default function AdminLoginPage({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // This page only shows without a staff session: whatever the browser remembered is stale.
  useEffect(() => clearAdminMarker(), []);
  return (
    <main id="contenido" className="grid min-h-screen place-items-center bg-acero-900 p-4">
      <div className="w-full max-w-md rounded-lg bg-white p-8 shadow-xl">
        <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">Forja · Administración</p>
        <h1 className="mt-2 text-2xl font-bold text-acero-900">Acceso del personal</h1>
        <p className="mt-2 text-sm text-acero-700">Solo para el personal de Forja. Las cuentas las crea el administrador del sistema.</p>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-5">
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="username" />
          <TextField field={fields.password} label="Contraseña" type="password" autoComplete="current-password" />
          <HoneypotField />
          <SubmitButton pendingLabel="Entrando…">Entrar al panel</SubmitButton>
        </Form>
        <p className="mt-6 text-sm">
          <a href="/" className="font-semibold text-forja-700 underline underline-offset-2">
            Volver al sitio
          </a>
        </p>
      </div>
    </main>
  );
}

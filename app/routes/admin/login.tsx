import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/login";
import { FormErrors, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { clearAdminMarker } from "~/lib/admin-marker";
import { adminSignInCookie, signedInHeaders } from "~/features/accounts/guards.server";
import { LoginSchema } from "~/features/accounts/forms";
import { beginStaffSignIn, finishStaffSignIn } from "~/features/accounts/code-sign-in.server";
import { StaffCodeSchema } from "~/features/accounts/code-forms";
import { guardPublicForm } from "~/services/security/form-guard.server";
import { formFailure } from "~/lib/form-reply";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { requestMeta, type RequestMeta } from "~/lib/request-meta";
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

/** The second step's ids and the typed email, carried by the page between the two steps (docs/decisions/0061). */
interface CodeStep {
  mfaId: string;
  otpId: string;
  email: string;
}

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readForm(request);
  if (formData.get("intent") === "codigo") return enterCode(meta, formData);
  const parsed = parseWithZod(formData, { schema: LoginSchema });
  if (parsed.status !== "success") return data({ result: parsed.reply({ hideFields: ["password"] }) }, { status: 400 });
  const guard = await guardPublicForm(formData, { scope: "admin-login", ip: meta.ip, rule: RATE_LIMITS.adminSignIn });
  if (!guard.ok) return formFailure(parsed, guard, { hideFields: ["password"] });
  const result = await beginStaffSignIn(meta, parsed.value);
  if (!result.ok) return formFailure(parsed, result, { hideFields: ["password"] });
  if (result.value.step === "code") {
    const { mfaId, otpId, email } = result.value;
    return data({ result: undefined, code: { mfaId, otpId, email } satisfies CodeStep });
  }
  throw redirect(adminTarget(parsed.value.redirectTo), { headers: panelHeaders(result.value.headers) });
}

async function enterCode(meta: RequestMeta, formData: FormData) {
  const parsed = parseWithZod(formData, { schema: StaffCodeSchema });
  const carried = { mfaId: String(formData.get("mfaId") ?? ""), otpId: String(formData.get("otpId") ?? ""), email: String(formData.get("email") ?? "") };
  if (parsed.status !== "success") return data({ result: parsed.reply(), code: carried }, { status: 400 });
  const guard = await guardPublicForm(formData, { scope: "admin-login", ip: meta.ip, rule: RATE_LIMITS.adminSignIn });
  if (!guard.ok) return formFailure(parsed, guard, { extra: { code: carried } });
  const result = await finishStaffSignIn(meta, parsed.value);
  if (!result.ok) return formFailure(parsed, result, { extra: { code: carried } });
  throw redirect(adminTarget(parsed.value.redirectTo), { headers: panelHeaders(result.value) });
}

function panelHeaders(authHeaders: Headers): Headers {
  const headers = signedInHeaders(authHeaders);
  headers.append("Set-Cookie", adminSignInCookie());
  return headers;
}

export default function AdminLoginPage({ loaderData, actionData }: Route.ComponentProps) {
  // This page only shows without a staff session: whatever the browser remembered is stale.
  useEffect(() => clearAdminMarker(), []);
  const codeStep = actionData && "code" in actionData ? actionData.code : undefined;
  return (
    <main id="contenido" className="grid min-h-screen place-items-center bg-acero-900 p-4">
      <div className="w-full max-w-md rounded-lg bg-white p-8 shadow-xl">
        <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">Forja · Administración</p>
        <h1 className="mt-2 text-2xl font-bold text-acero-900">{codeStep ? "Escriba su código" : "Acceso del personal"}</h1>
        {codeStep ? (
          <CodeForm step={codeStep} redirectTo={loaderData.redirectTo} lastResult={actionData?.result} />
        ) : (
          <PasswordForm redirectTo={loaderData.redirectTo} lastResult={actionData?.result} />
        )}
        <p className="mt-6 text-sm">
          <a href={codeStep ? `/admin/login?redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : "/"} className="font-semibold text-forja-700 underline underline-offset-2">
            {codeStep ? "Empezar de nuevo" : "Volver al sitio"}
          </a>
        </p>
      </div>
    </main>
  );
}

type LastResult = SubmissionResult<string[]> | null | undefined;

function PasswordForm({ redirectTo, lastResult }: { redirectTo: string; lastResult: LastResult }) {
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <p className="mt-2 text-sm text-acero-700">Solo para el personal de Forja. Las cuentas las crea el administrador del sistema.</p>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-5">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="username" />
        <TextField field={fields.password} label="Contraseña" type="password" autoComplete="current-password" />
        <HoneypotField />
        <SubmitButton pendingLabel="Entrando…">Entrar al panel</SubmitButton>
      </Form>
    </>
  );
}

/** The second step of an admin's sign-in: the code emailed to the account. */
function CodeForm({ step, redirectTo, lastResult }: { step: CodeStep; redirectTo: string; lastResult: LastResult }) {
  const [form, fields] = useForm({
    id: `codigo-${step.otpId}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: StaffCodeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <p className="mt-2 text-sm text-acero-700">
        Su contraseña es correcta. Por seguridad, las cuentas de administración entran en dos pasos: le enviamos un código de 8 dígitos a{" "}
        <strong>{step.email}</strong>. Vence en 3 minutos.
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-5">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="intent" value="codigo" />
        <input type="hidden" name="mfaId" value={step.mfaId} />
        <input type="hidden" name="otpId" value={step.otpId} />
        <input type="hidden" name="email" value={step.email} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField field={fields.code} label="Código del correo" autoComplete="one-time-code" help="Solo los 8 números, sin espacios." />
        <HoneypotField />
        <SubmitButton pendingLabel="Comprobando…">Entrar al panel</SubmitButton>
      </Form>
    </>
  );
}

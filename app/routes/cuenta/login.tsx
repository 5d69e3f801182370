import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/login";
import { FormErrors, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { AppLink } from "~/components/ui/app-link";
import { getSessionUser } from "~/features/accounts/accounts.server";
import { AuthCard } from "~/features/accounts/components/auth-card";
import { ProviderButtons } from "~/features/accounts/components/provider-buttons";
import { signedInHeaders } from "~/features/accounts/guards.server";
import { listProviders } from "~/features/accounts/providers.server";
import { signInOneStep } from "~/features/accounts/mfa.server";
import { LoginSchema } from "~/features/accounts/forms";
import { guardPublicForm } from "~/services/security/form-guard.server";
import { formFailure } from "~/lib/form-reply";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { requestMeta } from "~/lib/request-meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { pageMeta } from "~/lib/seo";
import { formHeaders } from "~/lib/route-headers";
import { readForm } from "~/lib/request-body";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Iniciar sesión", description: "Entre a su cuenta de Forja para ver y aceptar sus cotizaciones.", noindex: true });

export const headers = formHeaders;
export async function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/cuenta");
  if (await getSessionUser(requestMeta(request, context))) throw redirect(redirectTo);
  return { redirectTo, providers: listProviders().map(({ id, name }) => ({ id, name })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readForm(request);
  const parsed = parseWithZod(formData, { schema: LoginSchema });
  if (parsed.status !== "success") return data({ result: parsed.reply({ hideFields: ["password"] }) }, { status: 400 });
  const guard = await guardPublicForm(formData, { scope: "login", ip: meta.ip, rule: RATE_LIMITS.signIn });
  if (!guard.ok) return formFailure(parsed, guard, { hideFields: ["password"] });
  const result = await signInOneStep(meta, parsed.value);
  if (!result.ok) return formFailure(parsed, result, { hideFields: ["password"] });
  throw redirect(safeRedirect(parsed.value.redirectTo, "/cuenta"), { headers: signedInHeaders(result.value.headers) });
}

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const registerHref = `/registro?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`;
  return (
    <AuthCard
      title="Iniciar sesión"
      lead="Consulte sus cotizaciones, acéptelas en línea y dé seguimiento a sus pedidos."
      footer={
        <>
          <p>
            ¿No tiene cuenta?{" "}
            <AppLink to={registerHref} className="font-semibold text-forja-700 underline underline-offset-2">
              Crear una cuenta
            </AppLink>
          </p>
          <p>
            <AppLink to="/recuperar" className="font-semibold text-forja-700 underline underline-offset-2">
              ¿Olvidó su contraseña?
            </AppLink>
          </p>
          <p>
            ¿Prefiere no usar su contraseña?{" "}
            <AppLink to={`/login/codigo?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`} className="font-semibold text-forja-700 underline underline-offset-2">
              Recibir un código por correo
            </AppLink>
          </p>
        </>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" />
        <TextField field={fields.password} label="Contraseña" type="password" autoComplete="current-password" />
        <HoneypotField />
        <SubmitButton pendingLabel="Entrando…">Iniciar sesión</SubmitButton>
      </Form>
      <div className="mt-6">
        <ProviderButtons providers={loaderData.providers} redirectTo={loaderData.redirectTo} />
      </div>
    </AuthCard>
  );
}

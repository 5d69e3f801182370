import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/registro";
import { AppLink } from "~/components/ui/app-link";
import { FieldError, FormErrors, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { getSessionUser } from "~/features/accounts/accounts.server";
import { AuthCard } from "~/features/accounts/components/auth-card";
import { ProviderButtons } from "~/features/accounts/components/provider-buttons";
import { signedInHeaders } from "~/features/accounts/guards.server";
import { listProviders } from "~/features/accounts/providers.server";
import { registerCustomer } from "~/features/accounts/registration.server";
import { RegisterSchema } from "~/features/accounts/forms";
import { guardPublicForm } from "~/services/security/form-guard.server";
import { formFailure } from "~/lib/form-reply";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { requestMeta } from "~/lib/request-meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { pageMeta } from "~/lib/seo";
import { formHeaders } from "~/lib/route-headers";
import { readForm } from "~/lib/request-body";

const HIDDEN = ["password", "passwordConfirm"];

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Crear cuenta", description: "Cree su cuenta de Forja para recibir y aceptar cotizaciones en línea.", noindex: true });

export const headers = formHeaders;
export async function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/cuenta");
  if (await getSessionUser(requestMeta(request, context))) throw redirect(redirectTo);
  return { redirectTo, providers: listProviders().map(({ id, name }) => ({ id, name })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readForm(request);
  const parsed = parseWithZod(formData, { schema: RegisterSchema });
  if (parsed.status !== "success") return data({ result: parsed.reply({ hideFields: HIDDEN }) }, { status: 400 });
  const guard = await guardPublicForm(formData, { scope: "register", ip: meta.ip, rule: RATE_LIMITS.register });
  if (!guard.ok) return formFailure(parsed, guard, { hideFields: HIDDEN });
  const result = await registerCustomer(meta, parsed.value);
  if (!result.ok) return formFailure(parsed, result, { hideFields: HIDDEN });
  const target = safeRedirect(parsed.value.redirectTo, "/cuenta");
  throw redirect(target === "/cuenta" ? "/cuenta?bienvenida=1" : target, { headers: signedInHeaders(result.value.headers) });
}

export default function RegisterPage({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const { key: privacyKey, ...privacyProps } = getInputProps(fields.privacy, { type: "checkbox" });
  return (
    <AuthCard
      title="Crear cuenta"
      lead="Con su cuenta recibe sus cotizaciones, las acepta en línea y consulta sus pedidos. Le enviaremos un correo para confirmar su dirección."
      footer={
        <p>
          ¿Ya tiene cuenta?{" "}
          <AppLink to={`/login?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`} className="font-semibold text-forja-700 underline underline-offset-2">
            Iniciar sesión
          </AppLink>
        </p>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <TextField field={fields.name} label="Nombre completo" autoComplete="name" />
        <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" />
        <TextField field={fields.company} label="Empresa" autoComplete="organization" optional />
        <TextField field={fields.phone} label="Teléfono o WhatsApp" type="tel" autoComplete="tel" optional help="10 dígitos; puede empezar con +52." />
        <TextField field={fields.password} label="Contraseña" type="password" autoComplete="new-password" help="Al menos 8 caracteres. Evite contraseñas comunes." />
        <TextField field={fields.passwordConfirm} label="Repita la contraseña" type="password" autoComplete="new-password" />
        <div>
          <div className="flex items-start gap-3">
            <input key={privacyKey} {...privacyProps} className="size-6 shrink-0 accent-forja-600" />
            <label htmlFor={fields.privacy.id} className="text-sm text-acero-800">
              He leído y acepto el{" "}
              <a href="/aviso-de-privacidad" target="_blank" rel="noopener" className="font-semibold text-forja-700 underline underline-offset-2">
                aviso de privacidad
              </a>
              .
            </label>
          </div>
          <FieldError field={fields.privacy} />
        </div>
        <HoneypotField />
        <SubmitButton pendingLabel="Creando su cuenta…">Crear cuenta</SubmitButton>
      </Form>
      <div className="mt-6">
        <ProviderButtons providers={loaderData.providers} redirectTo={loaderData.redirectTo} />
      </div>
    </AuthCard>
  );
}

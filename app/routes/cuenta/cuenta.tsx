import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data } from "react-router";
import type { Route } from "./+types/cuenta";
import { AppLink } from "~/components/ui/app-link";
import { FormErrors, FormNotice, SubmitButton, TextField } from "~/components/ui/form";
import { PageIntro } from "~/components/ui/page-intro";
import { requireUser, signedInHeaders } from "~/features/accounts/guards.server";
import { resendConfirmation } from "~/features/accounts/email-confirmation.server";
import { isStaff } from "~/features/accounts/accounts.server";
import { requestEmailChange } from "~/features/accounts/email-change.server";
import { ChangePasswordSchema, EmailChangeSchema, ProfileSchema } from "~/features/accounts/forms";
import { changePassword } from "~/features/accounts/password.server";
import { updateProfile } from "~/features/accounts/profile.server";
import { listLinkedProviders } from "~/features/accounts/provider-sign-in.server";
import { replyToFailure } from "~/lib/form-reply";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, limited } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { readForm } from "~/lib/request-body";
import { consumeRateLimit, RATE_LIMITS, rateLimitMessage } from "~/services/security/rate-limit.server";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Mi cuenta", description: "Datos de su cuenta de Forja.", noindex: true });

const NOTICES: Record<string, string> = {
  bienvenida: "Le damos la bienvenida. Le enviamos un correo para confirmar su dirección.",
  restablecida: "Su contraseña nueva quedó guardada y cerramos las sesiones en otros dispositivos.",
  correoCambiado: "Su correo quedó cambiado. Desde ahora entre con él; cerramos las sesiones en otros dispositivos y avisamos a su dirección anterior.",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(requestMeta(request, context));
  const url = new URL(request.url);
  const notice = url.searchParams.has("bienvenida")
    ? NOTICES.bienvenida
    : url.searchParams.get("contrasena") === "restablecida"
      ? NOTICES.restablecida
      : url.searchParams.get("correo") === "cambiado"
        ? NOTICES.correoCambiado
        : null;
  // Staff change their email from the panel, as PocketBase's superusers (docs/decisions/0062).
  return { user, notice, mayChangeEmail: !isStaff(user), ...(await listLinkedProviders(user.id)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const user = await requireUser(meta);
  const formData = await readForm(request);
  const intent = formData.get("intent");

  if (intent === "resend") {
    const result = await resendConfirmation(user.email);
    return {
      intent,
      profile: null,
      password: null,
      email: null,
      message: result.ok ? `Le enviamos un correo nuevo de confirmación a ${user.email}.` : failureMessages(result).formErrors.join(" "),
    };
  }
  if (intent === "password") {
    const parsed = parseWithZod(formData, { schema: ChangePasswordSchema });
    const hidden = ["currentPassword", "newPassword", "passwordConfirm"];
    if (parsed.status !== "success") return data({ intent, profile: null, password: parsed.reply({ hideFields: hidden }), email: null, message: null }, { status: 400 });
    const result = await changePassword(meta, parsed.value);
    if (!result.ok) {
      const reply = replyToFailure(parsed, result, { hideFields: hidden });
      return data({ intent, profile: null, password: reply.result, email: null, message: null }, { status: reply.status, headers: reply.headers });
    }
    return data(
      { intent, profile: null, password: parsed.reply({ resetForm: true }), email: null, message: "Contraseña cambiada. Cerramos las sesiones abiertas en otros dispositivos." },
      { headers: signedInHeaders(result.value.headers) },
    );
  }
  if (intent === "email") {
    const parsed = parseWithZod(formData, { schema: EmailChangeSchema });
    if (parsed.status !== "success") return data({ intent, profile: null, password: null, email: parsed.reply(), message: null }, { status: 400 });
    // The record API's request-email-change shares this counter (docs/decisions/0062).
    const limit = await consumeRateLimit(`request-email-change:${meta.ip || "desconocida"}`, RATE_LIMITS.passwordReset);
    const result = limit.allowed ? await requestEmailChange({ userId: user.id, newEmail: parsed.value.newEmail }) : limited(rateLimitMessage(limit), limit.retryAfterSeconds);
    if (!result.ok) {
      const reply = replyToFailure(parsed, result);
      return data({ intent, profile: null, password: null, email: reply.result, message: null }, { status: reply.status, headers: reply.headers });
    }
    return {
      intent,
      profile: null,
      password: null,
      email: parsed.reply({ resetForm: true }),
      message: `Le enviamos un enlace a ${parsed.value.newEmail}. Ábralo en los próximos 30 minutos y escriba su contraseña para confirmar el cambio. Mientras tanto, su cuenta sigue usando ${user.email}.`,
    };
  }
  const parsed = parseWithZod(formData, { schema: ProfileSchema });
  if (parsed.status !== "success") return data({ intent: "profile", profile: parsed.reply(), password: null, email: null, message: null }, { status: 400 });
  const result = await updateProfile({ userId: user.id, name: parsed.value.name, company: parsed.value.company, phone: parsed.value.phone });
  if (!result.ok) {
    const reply = replyToFailure(parsed, result);
    return data({ intent: "profile", profile: reply.result, password: null, email: null, message: null }, { status: reply.status, headers: reply.headers });
  }
  return { intent: "profile", profile: parsed.reply(), password: null, email: null, message: "Sus datos quedaron guardados." };
}

export default function AccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const { user, providers, hasPassword, notice, mayChangeEmail } = loaderData;
  const [profileForm, profile] = useForm({
    id: "perfil",
    lastResult: actionData?.profile,
    defaultValue: { name: user.name, company: user.company ?? "", phone: user.phone ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const [passwordForm, password] = useForm({
    id: "contrasena",
    lastResult: actionData?.password,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const [emailForm, email] = useForm({
    id: "cambiar-correo",
    lastResult: actionData?.email,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EmailChangeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const message = actionData?.message;
  return (
    <>
      <PageIntro eyebrow="Mi cuenta" title={`Hola, ${user.name}`} lead={user.email}>
        <AppLink to="/quotes" className="btn-primary">
          Mis cotizaciones
        </AppLink>
        <AppLink to="/cuenta/pedidos" className="btn-secondary">
          Mis pedidos
        </AppLink>
        <Form method="post" action="/salir">
          <button type="submit" className="btn-secondary">
            Cerrar sesión
          </button>
        </Form>
      </PageIntro>
      <div className="container-page grid grid-cols-1 gap-8 py-10 wrap-anywhere lg:grid-cols-2">
        {notice || message ? (
          <div className="lg:col-span-2">
            <FormNotice>{message ?? notice}</FormNotice>
          </div>
        ) : null}

        <section aria-labelledby="datos" className="rounded-lg border border-acero-200 p-6">
          <h2 id="datos" className="text-lg font-semibold text-acero-900">
            Sus datos
          </h2>
          <Form method="post" {...getFormProps(profileForm)} className="mt-4 space-y-5">
            <FormErrors errors={profileForm.errors} id={profileForm.errorId} />
            <TextField field={profile.name} label="Nombre completo" autoComplete="name" />
            <TextField field={profile.company} label="Empresa" autoComplete="organization" optional />
            <TextField field={profile.phone} label="Teléfono o WhatsApp" type="tel" autoComplete="tel" optional help="10 dígitos; puede empezar con +52." />
            <SubmitButton intent="profile" pendingLabel="Guardando…" className="btn-primary">
              Guardar datos
            </SubmitButton>
          </Form>
        </section>

        <div className="space-y-8">
          <section aria-labelledby="correo" className="rounded-lg border border-acero-200 p-6">
            <h2 id="correo" className="text-lg font-semibold text-acero-900">
              Correo electrónico
            </h2>
            <p className="mt-2 text-acero-800">
              {user.email} ·{" "}
              {user.emailVerified ? (
                <span className="font-semibold text-green-800">confirmado</span>
              ) : (
                <span className="font-semibold text-forja-700">sin confirmar</span>
              )}
            </p>
            {user.emailVerified ? null : (
              <Form method="post" className="mt-4">
                <SubmitButton intent="resend" pendingLabel="Enviando…" className="btn-secondary">
                  Reenviar correo de confirmación
                </SubmitButton>
              </Form>
            )}
            {mayChangeEmail ? (
              <>
                <h3 id="cambiar-correo-titulo" className="mt-6 font-semibold text-acero-900">
                  Cambiar correo
                </h3>
                {hasPassword ? (
                  <Form method="post" {...getFormProps(emailForm)} aria-labelledby="cambiar-correo-titulo" className="mt-3 space-y-5">
                    <FormErrors errors={emailForm.errors} id={emailForm.errorId} />
                    <TextField
                      field={email.newEmail}
                      label="Correo nuevo"
                      type="email"
                      autoComplete="email"
                      help="Le enviaremos un enlace a esa dirección; el cambio se hace cuando lo abra y escriba su contraseña."
                    />
                    <SubmitButton intent="email" pendingLabel="Enviando…" className="btn-secondary">
                      Enviar enlace de confirmación
                    </SubmitButton>
                  </Form>
                ) : (
                  <p className="mt-2 text-acero-700">
                    Para cambiar su correo necesita una contraseña en su cuenta.{" "}
                    <AppLink to="/recuperar" className="font-semibold text-forja-700 underline underline-offset-2">
                      Defina una aquí
                    </AppLink>{" "}
                    y vuelva a esta página.
                  </p>
                )}
              </>
            ) : null}
          </section>

          {hasPassword ? (
            <section aria-labelledby="cambiar-contrasena" className="rounded-lg border border-acero-200 p-6">
              <h2 id="cambiar-contrasena" className="text-lg font-semibold text-acero-900">
                Cambiar contraseña
              </h2>
              <Form method="post" {...getFormProps(passwordForm)} className="mt-4 space-y-5">
                <FormErrors errors={passwordForm.errors} id={passwordForm.errorId} />
                <TextField field={password.currentPassword} label="Contraseña actual" type="password" autoComplete="current-password" />
                <TextField field={password.newPassword} label="Contraseña nueva" type="password" autoComplete="new-password" help="Al menos 8 caracteres. Se cerrarán sus otras sesiones." />
                <TextField field={password.passwordConfirm} label="Repita la contraseña nueva" type="password" autoComplete="new-password" />
                <SubmitButton intent="password" pendingLabel="Cambiando…" className="btn-primary">
                  Cambiar contraseña
                </SubmitButton>
              </Form>
            </section>
          ) : (
            <section aria-labelledby="sin-contrasena" className="rounded-lg border border-acero-200 p-6">
              <h2 id="sin-contrasena" className="text-lg font-semibold text-acero-900">
                Contraseña
              </h2>
              <p className="mt-2 text-acero-700">
                Su cuenta no tiene contraseña: entra con un código que le enviamos por correo o con un proveedor. Para entrar también con contraseña,{" "}
                <AppLink to="/recuperar" className="font-semibold text-forja-700 underline underline-offset-2">
                  elija una contraseña
                </AppLink>
                : le enviaremos un enlace a su correo.
              </p>
            </section>
          )}

          <section aria-labelledby="proveedores" className="rounded-lg border border-acero-200 p-6">
            <h2 id="proveedores" className="text-lg font-semibold text-acero-900">
              Inicio de sesión con proveedores
            </h2>
            {providers.length === 0 ? (
              <p className="mt-2 text-acero-700">Por ahora puede entrar con su correo y contraseña.</p>
            ) : (
              <ul className="mt-3 divide-y divide-acero-200">
                {providers.map((provider) => (
                  <li key={provider.id} className="flex items-center justify-between py-3">
                    <span className="font-medium text-acero-900">{provider.name}</span>
                    {provider.linked ? (
                      <span className="text-sm font-semibold text-green-800">Vinculado</span>
                    ) : (
                      <a href={`/connect/${provider.id}?redirectTo=%2Fcuenta`} className="text-sm font-semibold text-forja-700 underline underline-offset-2">
                        Vincular {provider.name}
                      </a>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>
    </>
  );
}

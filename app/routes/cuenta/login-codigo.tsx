import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/login-codigo";
import { FormErrors, FormNotice, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { AppLink } from "~/components/ui/app-link";
import { getSessionUser } from "~/features/accounts/accounts.server";
import { AuthCard } from "~/features/accounts/components/auth-card";
import { EnterCodeSchema, RequestCodeSchema } from "~/features/accounts/code-forms";
import { requestCustomerCode, signInCustomerWithCode } from "~/features/accounts/code-sign-in.server";
import { ONE_TIME_CODE_REQUESTS } from "~/features/accounts/one-time-codes.server";
import { signedInHeaders } from "~/features/accounts/guards.server";
import { guardPublicForm } from "~/services/security/form-guard.server";
import { formFailure } from "~/lib/form-reply";
import { RATE_LIMITS } from "~/services/security/rate-limit.server";
import { requestMeta, type RequestMeta } from "~/lib/request-meta";
import { safeRedirect } from "~/lib/safe-redirect";
import { pageMeta } from "~/lib/seo";
import { formHeaders } from "~/lib/route-headers";
import { readForm } from "~/lib/request-body";

// Sign-in by emailed code (docs/decisions/0061): the email, then the 8-digit code the customer
// receives; the session is the same cookie a password sign-in makes.

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Entrar con un código", description: "Reciba un código por correo para entrar a su cuenta de Forja sin contraseña.", noindex: true });

export const headers = formHeaders;
export async function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/cuenta");
  if (await getSessionUser(requestMeta(request, context))) throw redirect(redirectTo);
  return { redirectTo };
}

/** The second step's id and the typed email, carried by the page. */
interface CodeStep {
  otpId: string;
  email: string;
}

export async function action({ request, context }: Route.ActionArgs) {
  const meta = requestMeta(request, context);
  const formData = await readForm(request);
  return formData.get("intent") === "entrar" ? enterCode(meta, formData) : askForCode(meta, formData);
}

async function askForCode(meta: RequestMeta, formData: FormData) {
  const parsed = parseWithZod(formData, { schema: RequestCodeSchema });
  if (parsed.status !== "success") return data({ result: parsed.reply() }, { status: 400 });
  // Each code is an email: one counter per IP with the API's request-otp.
  const guard = await guardPublicForm(formData, { scope: "one-time-code", ip: meta.ip, rule: ONE_TIME_CODE_REQUESTS });
  if (!guard.ok) return formFailure(parsed, guard);
  const otpId = requestCustomerCode(parsed.value.email);
  return data({ result: undefined, code: { otpId, email: parsed.value.email } satisfies CodeStep });
}

async function enterCode(meta: RequestMeta, formData: FormData) {
  const parsed = parseWithZod(formData, { schema: EnterCodeSchema });
  const carried: CodeStep = { otpId: String(formData.get("otpId") ?? ""), email: String(formData.get("email") ?? "") };
  if (parsed.status !== "success") return data({ result: parsed.reply(), code: carried }, { status: 400 });
  const guard = await guardPublicForm(formData, { scope: "login", ip: meta.ip, rule: RATE_LIMITS.signIn });
  if (!guard.ok) return formFailure(parsed, guard, { extra: { code: carried } });
  const result = await signInCustomerWithCode(meta, parsed.value);
  if (!result.ok) return formFailure(parsed, result, { extra: { code: carried } });
  throw redirect(safeRedirect(parsed.value.redirectTo, "/cuenta"), { headers: signedInHeaders(result.value) });
}

type LastResult = SubmissionResult<string[]> | null | undefined;

export default function LoginCodePage({ loaderData, actionData }: Route.ComponentProps) {
  const codeStep = actionData && "code" in actionData ? actionData.code : undefined;
  const passwordHref = `/login?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`;
  return (
    <AuthCard
      title="Entrar con un código"
      lead="Le enviamos por correo un código de 8 dígitos para entrar a su cuenta sin escribir su contraseña."
      footer={
        <p>
          <AppLink to={passwordHref} className="font-semibold text-forja-700 underline underline-offset-2">
            Entrar con mi contraseña
          </AppLink>
        </p>
      }
    >
      {codeStep ? (
        <EnterCodeForm step={codeStep} redirectTo={loaderData.redirectTo} lastResult={actionData?.result} />
      ) : (
        <RequestCodeForm redirectTo={loaderData.redirectTo} lastResult={actionData?.result} />
      )}
    </AuthCard>
  );
}

function RequestCodeForm({ redirectTo, lastResult }: { redirectTo: string; lastResult: LastResult }) {
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RequestCodeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="intent" value="pedir" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" />
      <HoneypotField />
      <SubmitButton pendingLabel="Enviando…">Enviarme un código</SubmitButton>
    </Form>
  );
}

function EnterCodeForm({ step, redirectTo, lastResult }: { step: CodeStep; redirectTo: string; lastResult: LastResult }) {
  const [form, fields] = useForm({
    id: `codigo-${step.otpId}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EnterCodeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-5">
      <FormNotice>
        Si {step.email} corresponde a una cuenta de Forja, en un momento le llegará un correo con su código. Vence en 3 minutos.
      </FormNotice>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="intent" value="entrar" />
        <input type="hidden" name="otpId" value={step.otpId} />
        <input type="hidden" name="email" value={step.email} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField field={fields.code} label="Código del correo" autoComplete="one-time-code" help="Solo los 8 números, sin espacios." />
        <HoneypotField />
        <SubmitButton pendingLabel="Comprobando…">Entrar</SubmitButton>
      </Form>
      <p className="text-sm text-acero-700">
        ¿No le llegó?{" "}
        <AppLink to={`/login/codigo?redirectTo=${encodeURIComponent(redirectTo)}`} reloadDocument className="font-semibold text-forja-700 underline underline-offset-2">
          Pedir otro código
        </AppLink>
      </p>
    </div>
  );
}

import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { Form, data } from "react-router";
import type { Route } from "./+types/personal";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { FieldError, FormErrors, FormNotice, SubmitButton, TextField } from "~/components/ui/form";
import { TableScroll } from "~/components/ui/table-scroll";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { StaffInviteSchema, StaffResendSchema, StaffRoleSchema, StaffStateSchema } from "~/features/accounts/staff-forms";
import { inviteStaff, listStaff, resendStaffInvitation, setStaffActive, setStaffRole } from "~/features/accounts/staff-members.server";
import { INVITATION_HOURS, STAFF_ROLES, STAFF_ROLE_DESCRIPTIONS, STAFF_ROLE_LABELS, STAFF_STATE_LABELS } from "~/features/accounts/staff-roles";
import { formatDateTime } from "~/lib/format";
import { replyToFailure } from "~/lib/form-reply";
import { readForm } from "~/lib/request-body";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus, type Result } from "~/lib/result";
import { pageMeta } from "~/lib/seo";

// Staff accounts (issue 16 §4, docs/decisions/0040): who is on the staff with which role, inviting
// someone by email, changing a role, deactivating and reactivating. Admins only.

export const meta: Route.MetaFunction = () => pageMeta({ title: "Personal", description: "Cuentas del personal y sus roles.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaffArea(requestMeta(request, context), "personal");
  return { members: await listStaff(), selfId: staff.id };
}

type ActionAnswer = { intent: string; notice?: string; error?: string; result?: SubmissionResult<string[]> };

function rowAnswer(intent: string, result: Result<unknown>, notice: string) {
  if (result.ok) return data<ActionAnswer>({ intent, notice });
  return data<ActionAnswer>({ intent, error: failureMessages(result).formErrors.join(" ") }, { status: failureStatus(result) });
}

const invalidRequest = (intent: string) => data<ActionAnswer>({ intent, error: "No pudimos leer la solicitud. Recargue la página e intente de nuevo." }, { status: 400 });

export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireStaffArea(requestMeta(request, context), "personal");
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "");
  if (intent === "invitar") {
    const parsed = parseWithZod(formData, { schema: StaffInviteSchema });
    if (parsed.status !== "success") return data<ActionAnswer>({ intent, result: parsed.reply() }, { status: 400 });
    const result = await inviteStaff({ actor, ...parsed.value });
    if (!result.ok) {
      const reply = replyToFailure(parsed, result);
      return data<ActionAnswer>({ intent, result: reply.result }, { status: reply.status });
    }
    return data<ActionAnswer>({ intent, result: parsed.reply({ resetForm: true }), notice: `Enviamos la invitación a ${parsed.value.email}.` });
  }
  if (intent === "rol") {
    const parsed = StaffRoleSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return invalidRequest(intent);
    return rowAnswer(intent, await setStaffRole({ actor, ...parsed.data }), `Rol cambiado a «${STAFF_ROLE_LABELS[parsed.data.role]}».`);
  }
  if (intent === "desactivar" || intent === "reactivar") {
    const parsed = StaffStateSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return invalidRequest(intent);
    const active = intent === "reactivar";
    const result = await setStaffActive({ actor, userId: parsed.data.userId, active });
    return rowAnswer(intent, result, active ? "Cuenta reactivada: puede volver a entrar con su contraseña." : "Cuenta desactivada: sus sesiones se cerraron y no podrá entrar.");
  }
  if (intent === "reenviar") {
    const parsed = StaffResendSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return invalidRequest(intent);
    const result = await resendStaffInvitation({ actor, userId: parsed.data.userId });
    return rowAnswer(intent, result, result.ok ? `Enviamos una invitación nueva a ${result.value.email}.` : "");
  }
  return invalidRequest(intent);
}

const smallButton = "rounded-md border border-acero-300 px-3 py-1 text-sm font-medium hover:bg-acero-50";

export default function AdminStaffPage({ loaderData, actionData }: Route.ComponentProps) {
  const { members, selfId } = loaderData;
  const [form, fields] = useForm({
    id: "invitar",
    lastResult: actionData?.intent === "invitar" ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: StaffInviteSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const roleHelpId = `${fields.role.id}-ayuda`;
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-acero-900">Personal</h1>
      <p className="mt-1 text-acero-700">Quién entra al panel y qué puede usar cada quien. Los cambios de rol y las desactivaciones aplican de inmediato.</p>

      {actionData?.notice ? (
        <div className="mt-4">
          <FormNotice>{actionData.notice}</FormNotice>
        </div>
      ) : null}
      {actionData?.error ? (
        <div className="mt-4">
          <FormErrors errors={[actionData.error]} />
        </div>
      ) : null}

      <TableScroll label="Cuentas del personal" className="mt-6 rounded-lg border border-acero-200 bg-white">
        <table className="min-w-full divide-y divide-acero-200 text-sm">
          <caption className="sr-only">Cuentas del personal</caption>
          <thead className="bg-acero-50 text-left text-acero-800">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">Nombre</th>
              <th scope="col" className="px-4 py-3 font-semibold">Correo</th>
              <th scope="col" className="px-4 py-3 font-semibold">Rol</th>
              <th scope="col" className="px-4 py-3 font-semibold">Estado</th>
              <th scope="col" className="px-4 py-3 font-semibold">Último inicio de sesión</th>
              <th scope="col" className="px-4 py-3 font-semibold">Acciones</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-acero-100">
            {members.map((member) => (
              <tr key={member.id} data-testid="staff-row" data-email={member.email}>
                <td className="px-4 py-3 font-medium text-acero-900">
                  {member.name}
                  {member.id === selfId ? <span className="block text-xs font-normal text-acero-600">(usted)</span> : null}
                </td>
                <td className="px-4 py-3 text-acero-800">{member.email}</td>
                <td className="px-4 py-3">
                  <Form method="post" className="flex flex-wrap items-center gap-2">
                    <input type="hidden" name="userId" value={member.id} />
                    <label htmlFor={`rol-${member.id}`} className="sr-only">
                      Rol de {member.name}
                    </label>
                    <select id={`rol-${member.id}`} name="role" defaultValue={member.role} className="rounded-md border border-acero-300 bg-white px-2 py-1">
                      {STAFF_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {STAFF_ROLE_LABELS[role]}
                        </option>
                      ))}
                    </select>
                    <button type="submit" name="intent" value="rol" className={smallButton} aria-label={`Cambiar el rol de ${member.name}`}>
                      Cambiar
                    </button>
                  </Form>
                </td>
                <td className="px-4 py-3">
                  <span className={member.state === "desactivada" ? "font-semibold text-red-800" : member.state === "activa" ? "text-green-800" : "text-acero-800"}>
                    {STAFF_STATE_LABELS[member.state]}
                  </span>
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-acero-800">{member.lastSignInAt ? formatDateTime(member.lastSignInAt) : "—"}</td>
                <td className="px-4 py-3">
                  <div className="flex flex-wrap gap-2">
                    <Form method="post">
                      <input type="hidden" name="userId" value={member.id} />
                      <button
                        type="submit"
                        name="intent"
                        value={member.state === "desactivada" ? "reactivar" : "desactivar"}
                        className={smallButton}
                        aria-label={`${member.state === "desactivada" ? "Reactivar" : "Desactivar"} la cuenta de ${member.name}`}
                      >
                        {member.state === "desactivada" ? "Reactivar" : "Desactivar"}
                      </button>
                    </Form>
                    {member.state === "invitada" ? (
                      <Form method="post">
                        <input type="hidden" name="userId" value={member.id} />
                        <button type="submit" name="intent" value="reenviar" className={smallButton} aria-label={`Reenviar la invitación a ${member.name}`}>
                          Reenviar invitación
                        </button>
                      </Form>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="mt-2 text-sm text-acero-600">«Último inicio de sesión»: el de la sesión abierta más reciente; al cerrar sesión o desactivar la cuenta deja de mostrarse.</p>

      <section aria-labelledby="invitar-titulo" className="mt-10 max-w-xl rounded-lg border border-acero-200 bg-white p-6">
        <h2 id="invitar-titulo" className="text-lg font-semibold text-acero-900">
          Invitar a una persona
        </h2>
        <p className="mt-1 text-sm text-acero-700">Le enviaremos un correo con un enlace para elegir su contraseña. El enlace sirve una vez y vence en {INVITATION_HOURS} horas.</p>
        <Form method="post" {...getFormProps(form)} className="mt-5 space-y-5">
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="intent" value="invitar" />
          <TextField field={fields.name} label="Nombre completo" autoComplete="off" />
          <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="off" />
          <fieldset aria-describedby={fields.role.errors?.length ? fields.role.errorId : roleHelpId}>
            <legend className="block text-sm font-semibold text-acero-900">Rol</legend>
            <p id={roleHelpId} className="mt-1 text-sm text-acero-600">
              Dé a cada quien solo lo que necesita; puede cambiarlo después.
            </p>
            <div className="mt-2 space-y-2">
              {STAFF_ROLES.map((role) => {
                const { key, ...radioProps } = getInputProps(fields.role, { type: "radio", value: role });
                return (
                  <label key={key ?? role} className="flex items-start gap-2 text-sm text-acero-900">
                    <input {...radioProps} id={`${fields.role.id}-${role}`} className="mt-1" />
                    <span>
                      <strong>{STAFF_ROLE_LABELS[role]}</strong>
                      <span className="block text-acero-600">{STAFF_ROLE_DESCRIPTIONS[role]}</span>
                    </span>
                  </label>
                );
              })}
            </div>
            <FieldError field={fields.role} />
          </fieldset>
          <SubmitButton pendingLabel="Enviando…" className="btn-primary">
            Enviar invitación
          </SubmitButton>
        </Form>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}

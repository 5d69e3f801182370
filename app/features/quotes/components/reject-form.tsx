import { getFormProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FieldError, FormErrors, SubmitButton } from "~/components/ui/form";
import { REJECTION_REASONS, RejectQuoteSchema } from "../forms";

// The customer declines a quote: a reason from a short list and, optionally, a few words more.
// Posts intent "rechazar" to the page's action; works without JavaScript.

const fieldClass =
  "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700";

export function RejectQuoteForm({ lastResult, revision }: { lastResult?: SubmissionResult<string[]> | null; revision: number }) {
  const [form, fields] = useForm({
    id: "rechazar",
    lastResult: lastResult ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RejectQuoteSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const { key: reasonKey, ...reasonProps } = getSelectProps(fields.reason);
  const noteHelpId = `${fields.note.id}-ayuda`;
  const { key: noteKey, ...noteProps } = getTextareaProps(fields.note, { ariaDescribedBy: noteHelpId });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="revision" value={revision} />
      <div>
        <label htmlFor={fields.reason.id} className="block text-sm font-semibold text-acero-900">
          Motivo
        </label>
        <select key={reasonKey} {...reasonProps} className={fieldClass}>
          <option value="">Elija un motivo…</option>
          {REJECTION_REASONS.map((reason) => (
            <option key={reason.value} value={reason.value}>
              {reason.label}
            </option>
          ))}
        </select>
        <FieldError field={fields.reason} />
      </div>
      <div>
        <label htmlFor={fields.note.id} className="block text-sm font-semibold text-acero-900">
          Comentarios <span className="font-normal text-acero-600">(opcional)</span>
        </label>
        <textarea key={noteKey} {...noteProps} rows={3} maxLength={2000} className={fieldClass} />
        <p id={noteHelpId} className="mt-1 text-sm text-acero-600">
          Por ejemplo, el precio o el plazo que le funcionaría. Con eso podemos preparar una revisión.
        </p>
        <FieldError field={fields.note} />
      </div>
      <SubmitButton intent="rechazar" pendingLabel="Enviando…" className="btn-secondary">
        Rechazar la cotización
      </SubmitButton>
    </Form>
  );
}

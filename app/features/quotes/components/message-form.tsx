import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FieldError, FormErrors, SubmitButton } from "~/components/ui/form";
import { QuoteMessageSchema } from "../forms";

// A new message on a quote's thread (shown with QuoteMessageThread). Props only, so the customer's
// page and the staff detail share it: it posts intent "mensaje" and a body to `action` (the current
// route by default); the route calls addQuoteMessage with its own side. Works without JavaScript.

const fieldClass =
  "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700";

export function QuoteMessageForm({
  lastResult,
  action,
  label = "Su mensaje",
  help,
  submitLabel = "Enviar mensaje",
}: {
  lastResult?: SubmissionResult<string[]> | null;
  action?: string;
  label?: string;
  help?: string;
  submitLabel?: string;
}) {
  const [form, fields] = useForm({
    id: "mensaje",
    lastResult: lastResult ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: QuoteMessageSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const helpId = help ? `${fields.body.id}-ayuda` : undefined;
  const { key: bodyKey, ...bodyProps } = getTextareaProps(fields.body, { ariaDescribedBy: helpId });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
      <FormErrors errors={form.errors} id={form.errorId} />
      <div>
        <label htmlFor={fields.body.id} className="block text-sm font-semibold text-acero-900">
          {label}
        </label>
        <textarea key={bodyKey} {...bodyProps} rows={4} maxLength={5000} className={fieldClass} />
        {help ? (
          <p id={helpId} className="mt-1 text-sm text-acero-600">
            {help}
          </p>
        ) : null}
        <FieldError field={fields.body} />
      </div>
      <SubmitButton intent="mensaje" pendingLabel="Enviando…" className="btn-primary">
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}

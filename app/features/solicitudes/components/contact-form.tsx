import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FieldError, FormErrors, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { FORM_NONCE_FIELD, useFillEmptyFields, useFormVisit, type FieldFill } from "~/lib/form-visit";
import { contactSchema } from "../forms";
import { PrivacyConsent } from "./privacy-consent";

export function ContactForm({
  formToken,
  lastResult,
  fill = null,
  privacyHref,
}: {
  formToken: string;
  lastResult?: SubmissionResult<string[]> | null;
  /** A signed-in customer's name, email and phone, known after hydration: fill only empty fields. */
  fill?: FieldFill | null;
  privacyHref: string;
}) {
  const [form, fields] = useForm({
    id: "contacto",
    lastResult: lastResult ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema() }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const nonce = useFormVisit("contacto", formToken);
  useFillEmptyFields("contacto", fill);
  const { key: messageKey, ...messageProps } = getTextareaProps(fields.message);
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="formToken" value={formToken} />
      <input type="hidden" name={FORM_NONCE_FIELD} value={nonce} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField field={fields.name} label="Nombre" autoComplete="name" />
        <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" />
        <TextField field={fields.phone} label="Teléfono" type="tel" autoComplete="tel" optional />
        <TextField field={fields.subject} label="Asunto" />
      </div>
      <div>
        <label htmlFor={fields.message.id} className="block text-sm font-semibold text-acero-900">
          Mensaje
        </label>
        <textarea
          key={messageKey}
          {...messageProps}
          rows={6}
          className="mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700"
        />
        <FieldError field={fields.message} />
      </div>
      <PrivacyConsent field={fields.privacy} privacyHref={privacyHref} />
      <HoneypotField />
      <SubmitButton pendingLabel="Enviando…" className="btn-primary">
        Enviar mensaje
      </SubmitButton>
    </Form>
  );
}

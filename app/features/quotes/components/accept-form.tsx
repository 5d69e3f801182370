import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FieldError, FormErrors, SubmitButton, TextField } from "~/components/ui/form";
import { AcceptQuoteSchema } from "../forms";

// The customer's online acceptance: the typed full name is the signature, and the box says they
// read the terms. Posts intent "aceptar" to the page's action; works without JavaScript.

export function AcceptQuoteForm({
  number,
  revision,
  total,
  lastResult,
}: {
  number: string;
  revision: number;
  /** The total as shown, e.g. "$12,345.60". */
  total: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const [form, fields] = useForm({
    id: "aceptar",
    lastResult: lastResult ?? undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AcceptQuoteSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // Keyed by the revision too: when a new one arrives on a live page, the box that said "I read
  // revision N" starts unticked for the revision now shown (the name typed stays).
  const { key: termsKey, ...termsProps } = getInputProps(fields.terms, { type: "checkbox" });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="revision" value={revision} />
      <TextField
        field={fields.fullName}
        label="Su nombre completo (firma)"
        autoComplete="name"
        help="Escríbalo como quiere que aparezca en la aceptación; vale como su firma electrónica."
      />
      <div>
        <div className="flex items-start gap-3">
          <input key={`${termsKey}-${revision}`} {...termsProps} className="size-6 shrink-0 accent-forja-600" />
          <label htmlFor={fields.terms.id} className="text-sm text-acero-800">
            He leído las condiciones de la cotización {number} (revisión {revision}) y la acepto por {total} con IVA incluido.
          </label>
        </div>
        <FieldError field={fields.terms} />
      </div>
      <p className="text-sm text-acero-600">Al aceptar registramos su nombre, la fecha y hora, su dirección IP y su navegador, y le enviamos una confirmación por correo.</p>
      <SubmitButton intent="aceptar" pendingLabel="Registrando su aceptación…" className="btn-primary">
        Aceptar la cotización
      </SubmitButton>
    </Form>
  );
}

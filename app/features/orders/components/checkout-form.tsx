import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { AppLink } from "~/components/ui/app-link";
import { FieldError, FormErrors, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { formatMoney } from "~/lib/format";
import { ESTADOS, REGIMENES_FISCALES, USOS_CFDI } from "../sat-catalogs";
import { CheckoutSchema, type CheckoutFields, type CheckoutInput } from "../forms";

// The checkout form. It works without JavaScript: every section is in the page, and CSS (:has) hides
// the address while "recoger en planta" is chosen and the CFDI fields while no factura is asked —
// the server ignores what does not apply. With JavaScript, conform validates as the person types.

const control =
  "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700";

function SelectField({ field, label, placeholder, options, help }: { field: FieldMetadata<unknown>; label: string; placeholder: string; options: { value: string; label: string }[]; help?: ReactNode }) {
  const helpId = help ? `${field.id}-ayuda` : undefined;
  const { key, ...props } = getSelectProps(field, { ariaDescribedBy: helpId });
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-acero-900">
        {label}
      </label>
      <select key={key} {...props} className={control}>
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {help ? (
        <p id={helpId} className="mt-1 text-sm text-acero-600">
          {help}
        </p>
      ) : null}
      <FieldError field={field} />
    </div>
  );
}

function RadioOption({ field, value, label, hint }: { field: FieldMetadata<unknown>; value: string; label: string; hint?: string }) {
  const { key, ...props } = getInputProps(field, { type: "radio", value });
  const id = `${field.id}-${value}`;
  return (
    <label htmlFor={id} className="flex cursor-pointer items-start gap-3 rounded-md border border-acero-300 bg-white p-3 has-[:checked]:border-forja-600 has-[:checked]:bg-forja-50">
      <input key={key} {...props} id={id} className="size-6 shrink-0 accent-forja-600" />
      <span>
        <span className="block font-semibold text-acero-900">{label}</span>
        {hint ? <span className="block text-sm text-acero-700">{hint}</span> : null}
      </span>
    </label>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-acero-200 p-6">
      <h2 id={id} className="text-lg font-semibold text-acero-900">
        {title}
      </h2>
      <div className="mt-4 space-y-5">{children}</div>
    </section>
  );
}

export interface CheckoutFormProps {
  formToken: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaults: Record<string, string | boolean | undefined>;
  signedIn: boolean;
  hasSavedInvoice: boolean;
  totalCentavos: number;
  /** Where the plant is, short ("Santa Rosa Jáuregui, Querétaro"), from the business facts. */
  plantLocality: string;
}

export function CheckoutForm({ formToken, lastResult, defaults, signedIn, hasSavedInvoice, totalCentavos, plantLocality }: CheckoutFormProps) {
  const [form, fields] = useForm<CheckoutFields, CheckoutInput>({
    id: "checkout",
    lastResult: lastResult ?? undefined,
    defaultValue: defaults as Partial<CheckoutFields>,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CheckoutSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const { key: invoiceKey, ...invoiceProps } = getInputProps(fields.requiereFactura, { type: "checkbox" });
  const { key: notesKey, ...notesProps } = getTextareaProps(fields.notes);

  return (
    <Form method="post" {...getFormProps(form)} className="group space-y-6">
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="formToken" value={formToken} />
      <input type="hidden" name="expectedTotal" value={totalCentavos} />

      <Section id="contacto" title="Contacto">
        {signedIn ? null : (
          <p className="text-sm text-acero-700">
            ¿Ya tiene cuenta?{" "}
            <AppLink to="/login?redirectTo=%2Fcheckout" className="font-semibold text-forja-700 underline underline-offset-2">
              Inicie sesión
            </AppLink>{" "}
            para usar sus datos guardados y ver sus pedidos después.
          </p>
        )}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField field={fields.name} label="Nombre completo" autoComplete="name" />
          <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" help="Aquí le enviamos la confirmación y los avisos del pedido." />
          <TextField field={fields.phone} label="Teléfono o WhatsApp" type="tel" autoComplete="tel" help="10 dígitos; puede empezar con +52." />
          <TextField field={fields.company} label="Empresa" autoComplete="organization" optional />
        </div>
      </Section>

      <Section id="entrega" title="Entrega">
        <fieldset>
          <legend className="sr-only">Cómo recibirá su pedido</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <RadioOption field={fields.delivery} value="recoger" label="Recoger en planta" hint={`${plantLocality}. Sin costo.`} />
            <RadioOption field={fields.delivery} value="envio" label="Envío a domicilio" hint="Le confirmamos el costo y la paquetería por correo." />
          </div>
          <FieldError field={fields.delivery} />
        </fieldset>
        {/* Hidden by CSS while "recoger" is chosen; without :has() support it simply stays visible. */}
        <fieldset className="space-y-5 group-has-[input[name=delivery][value=recoger]:checked]:hidden">
          <legend className="text-sm font-semibold text-acero-900">Dirección de entrega (solo para envío)</legend>
          <div className="grid gap-5 sm:grid-cols-6">
            <div className="sm:col-span-4">
              <TextField field={fields.calle} label="Calle" autoComplete="address-line1" />
            </div>
            <div className="sm:col-span-2">
              <TextField field={fields.numero} label="Número" help="Exterior e interior, o S/N." />
            </div>
            <div className="sm:col-span-4">
              <TextField field={fields.colonia} label="Colonia" autoComplete="address-level3" />
            </div>
            <div className="sm:col-span-2">
              <TextField field={fields.codigoPostal} label="Código postal" autoComplete="postal-code" />
            </div>
            <div className="sm:col-span-3">
              <TextField field={fields.municipio} label="Municipio o alcaldía" autoComplete="address-level2" />
            </div>
            <div className="sm:col-span-3">
              <SelectField field={fields.estado} label="Estado" placeholder="Elija el estado" options={ESTADOS.map((estado) => ({ value: estado.name, label: estado.name }))} />
            </div>
            <div className="sm:col-span-6">
              <TextField field={fields.referencias} label="Referencias para el repartidor" optional help="Entre qué calles, horario de recepción, andén." />
            </div>
          </div>
        </fieldset>
      </Section>

      <Section id="factura" title="Factura">
        <div className="flex items-start gap-3">
          <input key={invoiceKey} {...invoiceProps} className="size-6 shrink-0 accent-forja-600" />
          <label htmlFor={fields.requiereFactura.id} className="text-acero-900">
            <span className="font-semibold">¿Requiere factura?</span>
            <span className="block text-sm text-acero-700">
              {hasSavedInvoice ? "Usamos los datos de su última compra; revíselos." : "CFDI 4.0 con los datos de su Constancia de Situación Fiscal."}
              {signedIn ? " Los guardamos en su cuenta para la próxima vez." : ""}
            </span>
          </label>
        </div>
        <div className="grid gap-5 sm:grid-cols-2 group-has-[input[name=requiereFactura]:not(:checked)]:hidden">
          <TextField field={fields.rfc} label="RFC" autoComplete="off" help="12 caracteres para personas morales, 13 para personas físicas." />
          <TextField field={fields.codigoPostalFiscal} label="Código postal fiscal" help="El de su domicilio fiscal, 5 dígitos." />
          <div className="sm:col-span-2">
            <TextField field={fields.razonSocial} label="Nombre o razón social" autoComplete="organization" help="Tal como aparece en su Constancia, sin el régimen societario (sin «S.A. de C.V.»)." />
          </div>
          <div className="sm:col-span-2">
            <SelectField
              field={fields.regimenFiscal}
              label="Régimen fiscal"
              placeholder="Elija su régimen fiscal"
              options={REGIMENES_FISCALES.map((regimen) => ({ value: regimen.code, label: `${regimen.code} · ${regimen.label}` }))}
            />
          </div>
          <div className="sm:col-span-2">
            <SelectField
              field={fields.usoCfdi}
              label="Uso del CFDI"
              placeholder="Elija el uso del CFDI"
              options={USOS_CFDI.map((uso) => ({ value: uso.code, label: `${uso.code} · ${uso.label}` }))}
              help="Para compras de una empresa suele ser G01 (adquisición de mercancías), G03 (gastos en general) o I08 (otra maquinaria y equipo)."
            />
          </div>
        </div>
      </Section>

      <Section id="pago-metodo" title="Pago">
        <fieldset>
          <legend className="sr-only">Cómo pagará su pedido</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <RadioOption field={fields.paymentMethod} value="spei" label="Transferencia SPEI" hint="Al confirmar le damos la CLABE y la referencia de su pedido." />
            <RadioOption field={fields.paymentMethod} value="recoger" label="Pago al recoger en planta" hint="Solo si recoge su pedido en planta." />
          </div>
          <FieldError field={fields.paymentMethod} />
        </fieldset>
        <div>
          <label htmlFor={fields.notes.id} className="block text-sm font-semibold text-acero-900">
            Notas del pedido <span className="font-normal text-acero-600">(opcional)</span>
          </label>
          <textarea key={notesKey} {...notesProps} rows={3} className={control} />
          <FieldError field={fields.notes} />
        </div>
      </Section>

      <HoneypotField />
      <SubmitButton pendingLabel="Confirmando su pedido…" className="btn-primary w-full sm:w-auto">
        Confirmar pedido por {formatMoney(totalCentavos)}
      </SubmitButton>
      <p className="text-sm text-acero-600">Precios con IVA incluido. Al confirmar apartamos las piezas de su pedido.</p>
    </Form>
  );
}

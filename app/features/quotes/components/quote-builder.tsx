import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, type ReactNode } from "react";
import { Form } from "react-router";
import { z } from "~/lib/zod";
import { FieldError, FormErrors, SubmitButton, TextField } from "~/components/ui/form";
import type { QuoteLine } from "../types";
import { formatMoney } from "~/lib/format";
import { QuoteDraftSchema, UNITS } from "../forms";
import { computeTotals, parseDiscount, parseMoney, parseQuantity } from "../totals";

// The staff quote builder: customer, lines, conditions, with live totals computed in the browser by
// the same arithmetic the server uses (the server recalculates on every save; its figures are the truth).
//
// Lines are added, removed and moved with conform's list intents (form.insert / remove / reorder).
// Their buttons are ordinary submit buttons (name="__intent__"), so:
//   - with JavaScript, conform applies the change in the browser, no request;
//   - without JavaScript, the form posts; the action sees the intent, parseWithZod applies it to the
//     posted values, and the page comes back with the modified lines. Nothing is saved until
//     "Guardar borrador", "Vista previa" or "Enviar al cliente".

export const QuoteBuilderSchema = QuoteDraftSchema.extend({
  // "previa" saves the draft and then shows it as the customer will see it.
  intent: z.enum(["guardar", "previa", "enviar"]).default("guardar"),
}).superRefine(
  (value, ctx) => {
    // The server refuses to send a zero price too; checking it here puts the message next to the field.
    if (value?.intent !== "enviar" || !Array.isArray(value.lines)) return;
    value.lines.forEach((line, index) => {
      if (typeof line?.unitPrice === "number" && line.unitPrice <= 0) {
        ctx.addIssue({ code: "custom", path: ["lines", index, "unitPrice"], message: "Para enviar, el precio unitario debe ser mayor que cero." });
      }
    });
  },
  // Also when other fields have errors, so that every problem shows at once.
  { when: () => true },
);

export type BuilderLine = {
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  discount: string;
};

export type QuoteBuilderDefaults = {
  customerName: string;
  customerEmail: string;
  customerCompany: string;
  lines: BuilderLine[];
  leadTimeDays: string;
  validityDays: string;
  terms: string;
  notes: string;
};

const NEW_LINE: BuilderLine = { description: "", quantity: "1", unit: "pieza", unitPrice: "", discount: "0" };

/** The saved draft as form text: centavos → "1250.50", thousandths → "1.5", basis points → "7.5". */
export function builderDefaults(
  quote: { customerName: string; customerEmail: string; customerCompany: string | null },
  revision: { lines: QuoteLine[]; leadTimeDays: number; validityDays: number; terms: string; notes: string },
): QuoteBuilderDefaults {
  return {
    customerName: quote.customerName,
    customerEmail: quote.customerEmail,
    customerCompany: quote.customerCompany ?? "",
    lines: revision.lines.map((line) => ({
      description: line.description,
      quantity: String(line.quantityMilli / 1000),
      unit: line.unit,
      unitPrice: (line.unitPriceCentavos / 100).toFixed(2),
      discount: String(line.discountBp / 100),
    })),
    leadTimeDays: String(revision.leadTimeDays),
    validityDays: String(revision.validityDays),
    terms: revision.terms,
    notes: revision.notes,
  };
}

/** Totals of what is typed right now; lines that do not parse yet count as zero. */
function liveTotals(lines: Partial<Record<keyof BuilderLine, unknown>>[]) {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const parsed = lines.map((line) => {
    const quantityMilli = parseQuantity(text(line?.quantity));
    const unitPriceCentavos = parseMoney(text(line?.unitPrice));
    const discountBp = parseDiscount(text(line?.discount));
    return quantityMilli === null || unitPriceCentavos === null || discountBp === null ? null : { quantityMilli, unitPriceCentavos, discountBp };
  });
  const { lines: amounts, totals } = computeTotals(parsed.map((line) => line ?? { quantityMilli: 0, unitPriceCentavos: 0, discountBp: 0 }));
  return { amounts: amounts.map((amount, index) => (parsed[index] ? amount.netCentavos : null)), totals, incomplete: parsed.filter((line) => !line).length };
}

const inputClass =
  "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700";
const smallButton =
  "inline-flex items-center gap-1 rounded-md border border-acero-300 bg-white px-2.5 py-1 text-sm font-medium text-acero-900 hover:bg-acero-50 disabled:cursor-not-allowed disabled:opacity-50";

function LineField({ field, label, lineNumber, children }: { field: FieldMetadata<unknown>; label: string; lineNumber: number; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-acero-900">
        {label}
        <span className="sr-only"> de la partida {lineNumber}</span>
      </label>
      {children}
      <FieldError field={field} />
    </div>
  );
}

export function QuoteBuilder({
  formId,
  action,
  defaults,
  lastResult,
  notice,
}: {
  formId: string;
  action?: string;
  defaults: QuoteBuilderDefaults;
  lastResult?: SubmissionResult<string[]> | null;
  /** What the last save said ("Borrador guardado…"), shown right under the buttons. */
  notice?: ReactNode;
}) {
  const [form, fields] = useForm({
    id: formId,
    lastResult: lastResult ?? undefined,
    defaultValue: defaults,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: QuoteBuilderSchema }),
    // Errors appear after a submit, not on blur: an error shown on blur moves the buttons below it
    // between mouse down and up, and the click ("Agregar partida", "Quitar…") would be lost.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const lines = fields.lines.getFieldList();
  const live = liveTotals((form.value?.lines ?? []) as Partial<Record<keyof BuilderLine, unknown>>[]);

  // Keyboard and screen-reader users land somewhere sensible after adding or removing a line.
  const addButton = useRef<HTMLButtonElement>(null);
  const previousCount = useRef(lines.length);
  useEffect(() => {
    const before = previousCount.current;
    previousCount.current = lines.length;
    if (lines.length > before) {
      const last = lines[lines.length - 1];
      if (last) document.getElementById(last.getFieldset().description.id)?.focus();
    } else if (lines.length < before) {
      addButton.current?.focus();
    }
  }, [lines]);

  const { key: termsKey, ...termsProps } = getTextareaProps(fields.terms, { ariaDescribedBy: `${fields.terms.id}-ayuda` });
  const { key: notesKey, ...notesProps } = getTextareaProps(fields.notes, { ariaDescribedBy: `${fields.notes.id}-ayuda` });

  return (
    <Form method="post" action={action} {...getFormProps(form)} className="space-y-8">
      {/* Enter in a text field submits with the form's first submit button: make that "save", not "remove line 1". */}
      <button type="submit" name="intent" value="guardar" className="sr-only" tabIndex={-1} aria-hidden="true">
        Guardar borrador
      </button>
      <FormErrors errors={form.errors} id={form.errorId} />

      <fieldset className="rounded-lg border border-acero-200 bg-white p-5">
        <legend className="px-1 text-lg font-semibold text-acero-900">Cliente</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.customerName} label="Nombre del cliente" autoComplete="off" />
          <TextField field={fields.customerEmail} label="Correo del cliente" type="email" autoComplete="off" help="Aquí llega el aviso con el enlace a la cotización." />
          <TextField field={fields.customerCompany} label="Empresa" optional autoComplete="off" />
        </div>
      </fieldset>

      <fieldset className="rounded-lg border border-acero-200 bg-white p-5" aria-describedby={fields.lines.errors?.length ? fields.lines.errorId : undefined}>
        <legend className="px-1 text-lg font-semibold text-acero-900">Partidas</legend>
        <p className="text-sm text-acero-700">Precios unitarios en pesos, antes de IVA. El IVA (16 %) se suma a cada partida.</p>
        <FieldError field={fields.lines} />
        {lines.length === 0 ? (
          <p className="mt-4 rounded-md border border-dashed border-acero-300 p-4 text-acero-700">Sin partidas. Agregue la primera con el botón de abajo.</p>
        ) : (
          <ol className="mt-4 space-y-4">
            {lines.map((line, index) => {
              const number = index + 1;
              const item = line.getFieldset();
              const { key: descriptionKey, ...descriptionProps } = getTextareaProps(item.description);
              const { key: quantityKey, ...quantityProps } = getInputProps(item.quantity, { type: "text" });
              const { key: unitKey, ...unitProps } = getSelectProps(item.unit);
              const { key: priceKey, ...priceProps } = getInputProps(item.unitPrice, { type: "text" });
              const { key: discountKey, ...discountProps } = getInputProps(item.discount, { type: "text" });
              const amount = live.amounts[index];
              return (
                <li key={line.key} className="rounded-md border border-acero-200 p-4">
                  <fieldset>
                    <legend className="flex w-full flex-wrap items-center justify-between gap-2">
                      <span className="font-semibold text-acero-900">Partida {number}</span>
                    </legend>
                    <div className="mt-2 grid gap-3 md:grid-cols-12">
                      <div className="md:col-span-12">
                        <LineField field={item.description} label="Descripción" lineNumber={number}>
                          <textarea key={descriptionKey} {...descriptionProps} rows={2} maxLength={500} required className={inputClass} />
                        </LineField>
                      </div>
                      <div className="md:col-span-2">
                        <LineField field={item.quantity} label="Cantidad" lineNumber={number}>
                          <input key={quantityKey} {...quantityProps} inputMode="decimal" autoComplete="off" required className={inputClass} />
                        </LineField>
                      </div>
                      <div className="md:col-span-2">
                        <LineField field={item.unit} label="Unidad" lineNumber={number}>
                          <select key={unitKey} {...unitProps} className={inputClass}>
                            {UNITS.map((unit) => (
                              <option key={unit} value={unit}>
                                {unit}
                              </option>
                            ))}
                          </select>
                        </LineField>
                      </div>
                      <div className="md:col-span-3">
                        <LineField field={item.unitPrice} label="Precio unitario (MXN, antes de IVA)" lineNumber={number}>
                          <input key={priceKey} {...priceProps} inputMode="decimal" autoComplete="off" placeholder="0.00" required className={inputClass} />
                        </LineField>
                      </div>
                      <div className="md:col-span-2">
                        <LineField field={item.discount} label="Descuento %" lineNumber={number}>
                          <input key={discountKey} {...discountProps} inputMode="decimal" autoComplete="off" placeholder="0" className={inputClass} />
                        </LineField>
                      </div>
                      <div className="md:col-span-3">
                        <p className="block text-sm font-semibold text-acero-900">Importe antes de IVA</p>
                        <p className="mt-1 py-2 text-base text-acero-900" data-testid={`importe-${number}`}>
                          {amount === null ? <span className="text-acero-600">Falta cantidad o precio válido</span> : formatMoney(amount)}
                        </p>
                      </div>
                    </div>
                    <div className="mt-3 flex flex-wrap gap-2">
                      <button {...form.reorder.getButtonProps({ name: fields.lines.name, from: index, to: index - 1 })} type="submit" className={smallButton} disabled={index === 0}>
                        <span aria-hidden="true">↑</span> Subir<span className="sr-only"> la partida {number}</span>
                      </button>
                      <button
                        {...form.reorder.getButtonProps({ name: fields.lines.name, from: index, to: index + 1 })}
                        type="submit"
                        className={smallButton}
                        disabled={index === lines.length - 1}
                      >
                        <span aria-hidden="true">↓</span> Bajar<span className="sr-only"> la partida {number}</span>
                      </button>
                      <button {...form.remove.getButtonProps({ name: fields.lines.name, index })} type="submit" className={`${smallButton} text-red-800`}>
                        <span aria-hidden="true">✕</span> Quitar<span className="sr-only"> la partida {number}</span>
                      </button>
                    </div>
                  </fieldset>
                </li>
              );
            })}
          </ol>
        )}
        <button ref={addButton} {...form.insert.getButtonProps({ name: fields.lines.name, defaultValue: NEW_LINE })} type="submit" className="btn-secondary mt-4 py-2 text-sm">
          <span aria-hidden="true">+</span> Agregar partida
        </button>
      </fieldset>

      <section aria-labelledby={`${formId}-totales`} className="rounded-lg border border-acero-200 bg-white p-5">
        <h2 id={`${formId}-totales`} className="text-lg font-semibold text-acero-900">
          Totales
        </h2>
        <dl className="mt-3 ml-auto w-full max-w-sm space-y-1 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="text-acero-700">Subtotal</dt>
            <dd className="text-acero-900" data-testid="subtotal">
              {formatMoney(live.totals.subtotalCentavos)}
            </dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-acero-700">IVA 16 %</dt>
            <dd className="text-acero-900" data-testid="iva">
              {formatMoney(live.totals.ivaCentavos)}
            </dd>
          </div>
          <div className="flex justify-between gap-4 border-t border-acero-200 pt-1 text-base font-bold">
            <dt className="text-acero-900">
              Total <span className="text-sm font-normal text-acero-700">(IVA incluido)</span>
            </dt>
            <dd className="text-acero-900" data-testid="total" aria-live="polite" aria-atomic="true">
              {formatMoney(live.totals.totalCentavos)} MXN
            </dd>
          </div>
        </dl>
        <p className="mt-3 text-xs text-acero-600">
          Cálculo preliminar mientras escribe. Al guardar, el servidor recalcula cada partida y el total (redondeo al centavo por partida); esas cifras son las que
          recibe el cliente.
          {live.incomplete ? ` ${live.incomplete === 1 ? "Una partida cuenta" : `${live.incomplete} partidas cuentan`} como cero hasta que tenga cantidad y precio válidos.` : ""}
        </p>
      </section>

      <fieldset className="rounded-lg border border-acero-200 bg-white p-5">
        <legend className="px-1 text-lg font-semibold text-acero-900">Condiciones</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.leadTimeDays} label="Plazo de entrega (días hábiles)" type="number" />
          <TextField field={fields.validityDays} label="Vigencia (días)" type="number" help="Cuenta a partir del envío; 30 días si no la cambia." />
        </div>
        <div className="mt-4">
          <label htmlFor={fields.terms.id} className="block text-sm font-semibold text-acero-900">
            Términos y condiciones
          </label>
          <textarea key={termsKey} {...termsProps} rows={6} maxLength={5000} className={inputClass} />
          <p id={`${fields.terms.id}-ayuda`} className="mt-1 text-sm text-acero-600">
            El cliente los lee en la cotización y en el PDF.
          </p>
          <FieldError field={fields.terms} />
        </div>
        <div className="mt-4">
          <label htmlFor={fields.notes.id} className="block text-sm font-semibold text-acero-900">
            Notas internas <span className="font-normal text-acero-600">(opcional)</span>
          </label>
          <textarea key={notesKey} {...notesProps} rows={3} maxLength={5000} className={inputClass} />
          <p id={`${fields.notes.id}-ayuda`} className="mt-1 text-sm text-acero-600">
            Solo para el personal: supuestos, proveedor, márgenes.
          </p>
          <FieldError field={fields.notes} />
        </div>
      </fieldset>

      <div className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton intent="guardar" pendingLabel="Guardando…" className="btn-secondary">
            Guardar borrador
          </SubmitButton>
          <SubmitButton intent="previa" pendingLabel="Guardando…" className="btn-secondary">
            Guardar y ver vista previa
          </SubmitButton>
          <SubmitButton intent="enviar" pendingLabel="Enviando…" className="btn-primary">
            Enviar al cliente
          </SubmitButton>
        </div>
        {notice}
      </div>
      <p className="text-sm text-acero-700">
        «Enviar al cliente» guarda los cambios, comprueba que haya al menos una partida, que todas tengan precio y que el correo sea válido, y le envía un aviso
        con el enlace a la cotización. Después de enviarla, solo se cambia con una revisión nueva.
      </p>
    </Form>
  );
}

import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { FieldError, FormErrors, SubmitButton, TextField } from "~/components/ui/form";
import { formatMoney } from "~/lib/format";
import { priceWithIva } from "~/lib/money";
import { unitName } from "~/lib/units";
import { IVA_RATES, parsePesos, PRODUCT_UNITS, ProductSchema } from "../forms";
import { ImagePicker } from "./image-picker";

// The staff product form: every field of a product plus new images, posted as multipart so it
// works without JavaScript. With JavaScript, fields are checked as they are left and the price
// with IVA follows what is typed.

export interface ProductFormDefaults {
  name: string;
  sku: string;
  slug: string;
  category: string;
  shortDescription: string;
  description: string;
  price: string;
  ivaBp: string;
  unit: string;
  stock: string;
  minOrder: string;
  /** "on" when active (a checkbox's value). */
  active: string | undefined;
}

export const NEW_PRODUCT_DEFAULTS: ProductFormDefaults = {
  name: "",
  sku: "",
  slug: "",
  category: "",
  shortDescription: "",
  description: "",
  price: "",
  ivaBp: "1600",
  unit: "pieza",
  stock: "0",
  minOrder: "1",
  active: "on",
};

const inputClass =
  "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700";

function Labelled({ field, label, help, children }: { field: FieldMetadata<unknown>; label: string; help?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-acero-900">
        {label}
      </label>
      {children}
      {help ? (
        <p id={`${field.id}-ayuda`} className="mt-1 text-sm text-acero-600">
          {help}
        </p>
      ) : null}
      <FieldError field={field} />
    </div>
  );
}

/** The price with IVA for what is typed now; the server computes the same with ~/lib/money. */
function livePrice(price: unknown, ivaBp: unknown): string {
  const centavos = parsePesos(typeof price === "string" ? price : "");
  const rate = Number(typeof ivaBp === "string" ? ivaBp : NaN);
  if (centavos === null || centavos <= 0 || !IVA_RATES.some((option) => option.value === rate)) return "—";
  return formatMoney(priceWithIva(centavos, rate));
}

export function ProductForm({
  defaults,
  lastResult,
  categories,
  existingImages,
  isNew,
}: {
  defaults: ProductFormDefaults;
  lastResult?: SubmissionResult<string[]> | null;
  categories: string[];
  existingImages: number;
  isNew: boolean;
}) {
  const [form, fields] = useForm({
    id: "producto",
    lastResult: lastResult ?? undefined,
    defaultValue: defaults,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProductSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const values = (form.value ?? defaults) as Partial<Record<keyof ProductFormDefaults, unknown>>;
  const imagesField = (fields as unknown as Record<string, FieldMetadata<unknown>>).images!;
  const textarea = (field: FieldMetadata<unknown>, rows: number, describedBy?: string) => {
    const { key, ...props } = getTextareaProps(field, { ariaDescribedBy: describedBy });
    return <textarea key={key} {...props} rows={rows} className={inputClass} />;
  };
  const select = (field: FieldMetadata<unknown>, options: readonly { value: string | number; label: string }[]) => {
    const { key, ...props } = getSelectProps(field);
    return (
      <select key={key} {...props} className={inputClass}>
        {options.map((option) => (
          <option key={option.value} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
    );
  };
  const { key: categoryKey, ...categoryProps } = getInputProps(fields.category, { type: "text" });
  const { key: priceKey, ...priceProps } = getInputProps(fields.price, { type: "text", ariaDescribedBy: `${fields.price.id}-ayuda` });
  const { key: activeKey, ...activeProps } = getInputProps(fields.active, { type: "checkbox" });

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-8">
      <FormErrors errors={form.errors} id={form.errorId} />

      <fieldset className="space-y-5 rounded-lg border border-acero-200 bg-white p-5">
        <legend className="px-1 text-lg font-semibold text-acero-900">Datos del producto</legend>
        <TextField field={fields.name} label="Nombre" help="Como lo buscaría un comprador: tipo de pieza, material y medida principal." />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField field={fields.sku} label="SKU" help="Único; por ejemplo FOR-BRD-150." />
          <TextField
            field={fields.slug}
            label="Dirección en el catálogo"
            optional
            help="/catalogo/… en minúsculas y con guiones. Vacía: se genera del nombre."
          />
        </div>
        <Labelled field={fields.category} label="Categoría" help="Elija una existente o escriba una nueva.">
          <input key={categoryKey} {...categoryProps} list="categorias-existentes" autoComplete="off" className={inputClass} />
          <datalist id="categorias-existentes">
            {categories.map((category) => (
              <option key={category} value={category} />
            ))}
          </datalist>
        </Labelled>
        <Labelled field={fields.shortDescription} label="Descripción corta" help="Una o dos frases para la tarjeta del catálogo (hasta 240 caracteres).">
          {textarea(fields.shortDescription, 2, `${fields.shortDescription.id}-ayuda`)}
        </Labelled>
        <Labelled
          field={fields.description}
          label="Descripción y especificaciones"
          help="Markdown: ## Subtítulo, - viñetas, **negritas**. Incluya material, medidas, tolerancias y acabado."
        >
          {textarea(fields.description, 12, `${fields.description.id}-ayuda`)}
        </Labelled>
      </fieldset>

      <fieldset className="space-y-5 rounded-lg border border-acero-200 bg-white p-5">
        <legend className="px-1 text-lg font-semibold text-acero-900">Precio y existencia</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          <Labelled
            field={fields.price}
            label="Precio neto por unidad (MXN, antes de IVA)"
            help={
              <>
                Precio al público con IVA:{" "}
                <output htmlFor={`${fields.price.id} ${fields.ivaBp.id}`} aria-live="polite" className="font-semibold text-acero-900" data-testid="precio-publico">
                  {livePrice(values.price, values.ivaBp)}
                </output>
              </>
            }
          >
            <input key={priceKey} {...priceProps} inputMode="decimal" placeholder="1250.00" className={inputClass} />
          </Labelled>
          <Labelled field={fields.ivaBp} label="Tasa de IVA">
            {select(fields.ivaBp, IVA_RATES)}
          </Labelled>
          <Labelled field={fields.unit} label="Unidad de venta">
            {select(
              fields.unit,
              PRODUCT_UNITS.map((unit) => ({ value: unit, label: unitName(unit) })),
            )}
          </Labelled>
          <TextField field={fields.minOrder} label="Pedido mínimo" type="number" help="En unidades de venta." />
          <TextField field={fields.stock} label="Existencia" type="number" help="0 se muestra como «Sobre pedido»; de 1 a 10, como «Últimas N piezas»." />
        </div>
        <div>
          <div className="flex items-start gap-3">
            <input key={activeKey} {...activeProps} className="mt-1 size-4 accent-forja-600" />
            <label htmlFor={fields.active.id} className="text-sm text-acero-900">
              <span className="font-semibold">Activo:</span> aparece en el catálogo y se puede comprar.
            </label>
          </div>
          <FieldError field={fields.active} />
        </div>
      </fieldset>

      <fieldset className="space-y-4 rounded-lg border border-acero-200 bg-white p-5">
        <legend className="px-1 text-lg font-semibold text-acero-900">{isNew || existingImages === 0 ? "Imágenes" : "Agregar imágenes"}</legend>
        <ImagePicker field={imagesField} existing={existingImages} />
        <div>
          <label htmlFor="producto-imagen-alt" className="block text-sm font-semibold text-acero-900">
            Texto alternativo de las imágenes nuevas <span className="font-normal text-acero-600">(opcional)</span>
          </label>
          <input id="producto-imagen-alt" name="imageAlt" type="text" maxLength={200} className={inputClass} aria-describedby="producto-imagen-alt-ayuda" />
          <p id="producto-imagen-alt-ayuda" className="mt-1 text-sm text-acero-600">
            Describa lo que muestra la foto, para quien no puede verla. Si lo deja vacío, se usa el nombre del producto. Después puede cambiarlo en cada imagen.
          </p>
        </div>
      </fieldset>

      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pendingLabel="Guardando…" className="btn-primary">
          {isNew ? "Crear producto" : "Guardar cambios"}
        </SubmitButton>
      </div>
    </Form>
  );
}

import { Form } from "react-router";
import { PART_FINISH_NAMES } from "../cad/finishes";
import type { StaffModel } from "../staff-products.server";

// The staff's CAD model panel on /admin/productos/<id> (issue 12 §1): how the model stands, its
// drawing once built, and a form to upload a STEP that replaces it.

function statusText(model: StaffModel): string {
  const what = model.source === "step" ? `del archivo «${model.sourceName ?? "STEP"}»` : "paramétrico";
  switch (model.status) {
    case "pending":
    case "computing":
      return `Construyendo el modelo ${what}: el dibujo, la vista 3D y las descargas aparecen en un momento.`;
    case "ok":
      return `Modelo ${what}: la página del producto muestra su dibujo, la vista 3D y las descargas STEP y STL.`;
    case "failed":
      return `No se pudo construir el modelo ${what}: ${model.reason ?? "motivo desconocido"}`;
  }
}

export function ProductModelPanel({ model, error }: { model: StaffModel | null; error?: string[] }) {
  return (
    <section aria-labelledby="modelo-titulo" className="rounded-lg border border-acero-200 bg-white p-5">
      <h2 id="modelo-titulo" className="text-lg font-semibold text-acero-900">
        Modelo CAD
      </h2>
      <p className="mt-1 text-sm text-acero-700" data-testid="estado-modelo" role="status">
        {model ? statusText(model) : "Sin modelo: la página del producto muestra solo sus fotos."}
      </p>
      {model?.files ? (
        <img src={model.files.drawing.url} width={model.files.drawing.width} height={model.files.drawing.height} alt="Dibujo técnico del modelo actual" className="mt-3 h-auto w-full rounded border border-acero-200" />
      ) : null}
      <Form method="post" action="?modelo" encType="multipart/form-data" className="mt-4 space-y-3">
        <div>
          <label htmlFor="modelo" className="block text-sm font-medium text-acero-900">
            {model ? "Reemplazar con un archivo STEP" : "Subir un archivo STEP"}
          </label>
          <input
            id="modelo"
            name="modelo"
            type="file"
            accept=".step,.stp"
            required
            aria-describedby={error?.length ? "modelo-ayuda modelo-error" : "modelo-ayuda"}
            aria-invalid={error?.length ? true : undefined}
            className="mt-1 block w-full text-sm"
          />
          <p id="modelo-ayuda" className="mt-1 text-xs text-acero-600">
            Hasta 30 MB, en milímetros o pulgadas. Hacemos con él el dibujo técnico, la imagen, la vista 3D y las descargas.
          </p>
          {error?.length ? (
            <p id="modelo-error" className="mt-1 text-sm font-medium text-red-700">
              {error[0]}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor="modelo-material" className="block text-sm font-medium text-acero-900">
            Material (para el dibujo)
          </label>
          <input id="modelo-material" name="material" type="text" maxLength={120} defaultValue={model?.material ?? ""} autoComplete="off" className="mt-1 w-full rounded-md border border-acero-300 px-3 py-2 text-sm" />
        </div>
        <div>
          <label htmlFor="modelo-acabado" className="block text-sm font-medium text-acero-900">
            Acabado de la imagen
          </label>
          <select id="modelo-acabado" name="acabado" defaultValue="acero" className="mt-1 w-full rounded-md border border-acero-300 px-3 py-2 text-sm">
            {Object.entries(PART_FINISH_NAMES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-dark py-2 text-sm">
          Subir modelo
        </button>
      </Form>
    </section>
  );
}

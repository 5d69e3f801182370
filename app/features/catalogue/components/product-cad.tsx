import { PartViewer } from "~/components/part-viewer/part-viewer";
import { formatFileSize } from "~/lib/format";
import type { PublicModel } from "../cad/model-files.server";

// A product's CAD model on its page (issue 12 §1): the technical drawing (the SVG written into the
// page, decision 0071, or an image when it could not be read: it needs no JavaScript), the 3D viewer
// that opens on demand over it, and the STEP and STL downloads.

const decimal = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 1 });
const mm = (value: number) => decimal.format(value);

export function modelDimensions(size: PublicModel["size"]): string {
  return `${mm(size.x)} × ${mm(size.y)} × ${mm(size.z)} mm`;
}

export function ProductCad({ model, drawingSvg, name, sku }: { model: PublicModel; drawingSvg: string | null; name: string; sku: string }) {
  const dimensions = modelDimensions(model.size);
  const alt = `Dibujo técnico de ${name}: vista isométrica y vistas frontal, superior y lateral con sus medidas en milímetros.`;
  return (
    <section aria-labelledby="modelo-cad" className="mt-12">
      <h2 id="modelo-cad" className="text-2xl font-bold text-acero-900">
        Dibujo y modelo CAD
      </h2>
      <p className="mt-1 max-w-3xl text-acero-800">
        Medidas generales: {dimensions}. Volumen: {decimal.format(model.volumeMm3 / 1000)} cm³. Descargue el modelo para revisarlo en su sistema CAD antes de comprar.
      </p>
      <div className="mt-5 grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <PartViewer source={{ kind: "stl", url: model.stl.url }} label={name} dimensions={dimensions}>
          {drawingSvg ? (
            // One image for assistive technology, named as the <img> would be (an img's content is presentational).
            <div
              role="img"
              aria-label={alt}
              className="overflow-hidden rounded-lg border border-acero-200 bg-white [&>svg]:block [&>svg]:h-auto [&>svg]:w-full"
              dangerouslySetInnerHTML={{ __html: drawingSvg }}
            />
          ) : (
            <img
              src={model.drawing.url}
              width={model.drawing.width}
              height={model.drawing.height}
              alt={alt}
              loading="lazy"
              decoding="async"
              className="h-auto w-full rounded-lg border border-acero-200 bg-white"
            />
          )}
        </PartViewer>
        <div className="rounded-lg border border-acero-200 p-5">
          <h3 className="font-semibold text-acero-900">Descargar CAD</h3>
          <p className="mt-1 text-sm text-acero-700">Modelo sólido en milímetros, listo para ensamblar en su diseño.</p>
          <ul className="mt-3 space-y-2">
            <li>
              <a href={model.step.url} download={`${sku}.step`} className="btn-secondary w-full justify-between">
                <span>STEP</span>
                <span className="text-sm font-normal">{formatFileSize(model.step.bytes)}</span>
              </a>
            </li>
            <li>
              <a href={model.stl.url} download={`${sku}.stl`} className="btn-secondary w-full justify-between">
                <span>STL</span>
                <span className="text-sm font-normal">{formatFileSize(model.stl.bytes)}</span>
              </a>
            </li>
            <li>
              <a href={model.drawing.url} download={`${sku}.svg`} className="text-sm font-medium text-forja-700 underline underline-offset-2">
                Dibujo técnico (SVG)
              </a>
            </li>
          </ul>
        </div>
      </div>
    </section>
  );
}

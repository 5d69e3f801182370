import { useEffect, useId, useMemo, useRef, useState } from "react";
import { PartViewer } from "~/components/part-viewer/part-viewer";
import { meshFromStl, type ViewerMesh } from "~/components/part-viewer/viewer-mesh";
import { formatFileSize, formatMoney, formatNumber } from "~/lib/format";
import { formatUnitQuantity } from "~/lib/units";
import { StlParseError } from "~/lib/stl";
import { measureTriangles, priceMeasurement, type StlMeasurement } from "../estimate";
import { getPriceRule, normalizeQuantity } from "../price-rules";
import { SERVICE_OPTIONS, UPLOAD_LIMITS } from "../forms";

// Instant estimate on /cotiza: each chosen .stl is measured in the browser (nothing is sent until the
// form is) with the same functions the server uses to keep the estimate with the request. The triangles
// read for it also make the part's 3D preview.

export type StlFileResult =
  | { status: "calculando" }
  /** `mesh`: the file's triangles for the 3D preview. */
  | { status: "listo"; measurement: StlMeasurement; mesh?: ViewerMesh }
  | { status: "error"; message: string }
  | { status: "muy-grande" };

export interface StlEstimateItem {
  key: string;
  name: string;
  result: StlFileResult;
}

const isStl = (file: File) => /\.stl$/i.test(file.name);
const MAX_BYTES = UPLOAD_LIMITS.maxFileBytes;

/** Lets the browser paint "Calculando…" before a long synchronous measurement. */
const nextFrame = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function StlEstimate({ files, service, quantity }: { files: File[]; service: string | undefined; quantity: number | undefined }) {
  const stlFiles = useMemo(() => files.filter(isStl), [files]);
  // Measurements are kept per File: changing the service or quantity only re-prices, never re-reads.
  const cache = useRef(new WeakMap<File, StlFileResult>());
  const [, setVersion] = useState(0);

  useEffect(() => {
    let cancelled = false;
    const store = (file: File, result: StlFileResult) => {
      cache.current.set(file, result);
      setVersion((version) => version + 1);
    };
    void (async () => {
      for (const file of stlFiles) {
        if (cancelled) return;
        if (cache.current.has(file)) continue;
        if (file.size > MAX_BYTES) {
          store(file, { status: "muy-grande" });
          continue;
        }
        try {
          const bytes = await file.arrayBuffer();
          await nextFrame();
          if (cancelled) return;
          const mesh = meshFromStl(bytes);
          store(file, { status: "listo", measurement: measureTriangles(mesh.positions), mesh });
        } catch (error) {
          if (cancelled) return;
          const message =
            error instanceof StlParseError ? error.message : "No pudimos leer este archivo en su navegador. Aun así puede enviarlo con su solicitud.";
          store(file, { status: "error", message });
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [stlFiles]);

  if (stlFiles.length === 0) return null;
  const items = stlFiles.map((file, index) => ({
    key: `${index}-${file.name}-${file.size}-${file.lastModified}`,
    name: file.name,
    result: cache.current.get(file) ?? { status: "calculando" as const },
  }));
  return <StlEstimateView items={items} service={service} quantity={quantity} />;
}

export const decimal = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 2 });
const small = new Intl.NumberFormat("es-MX", { maximumSignificantDigits: 3 });
/** A bounding box as shown with the estimates, e.g. "10 × 20.5 × 30 mm" (es-MX). */
export const formatBox = ({ x, y, z }: { x: number; y: number; z: number }) => `${decimal.format(x)} × ${decimal.format(y)} × ${decimal.format(z)} mm`;
export const formatCm3 = (mm3: number) => {
  const cm3 = mm3 / 1000;
  return `${cm3 > 0 && cm3 < 1 ? small.format(cm3) : decimal.format(cm3)} cm³`;
};

/** The estimate as shown, given each file's result; separate from the reading so it can be rendered anywhere. */
export function StlEstimateView({ items, service, quantity }: { items: StlEstimateItem[]; service: string | undefined; quantity: number | undefined }) {
  const headingId = useId();
  const rule = getPriceRule(service);
  const busy = items.some((item) => item.result.status === "calculando");
  const pieces = normalizeQuantity(quantity);

  return (
    <section aria-labelledby={headingId} className="rounded-md border border-acero-200 bg-acero-50 p-4">
      <h3 id={headingId} className="text-base font-semibold text-acero-900">
        Estimación instantánea de sus archivos STL
      </h3>
      <p className="mt-1 text-sm text-acero-600">
        Calculada en su navegador, suponiendo que el modelo está en milímetros.
        <PriceHint service={service} />
      </p>
      <div aria-live="polite" aria-busy={busy} className="mt-3 space-y-3">
        {items.map((item) => (
          <article key={item.key} className="rounded-md border border-acero-200 bg-white p-3">
            <h4 className="text-sm font-semibold break-all text-acero-900">{item.name}</h4>
            <FileResult name={item.name} result={item.result} service={service} quantity={pieces} rangeNote={rule?.rangeNote} />
          </article>
        ))}
      </div>
    </section>
  );
}

function FileResult({
  name,
  result,
  service,
  quantity,
  rangeNote,
}: {
  name: string;
  result: StlFileResult;
  service: string | undefined;
  quantity: number;
  rangeNote: string | undefined;
}) {
  if (result.status === "calculando") return <p className="mt-1 text-sm text-acero-600">Calculando volumen y dimensiones…</p>;
  if (result.status === "muy-grande") {
    return (
      <p className="mt-1 text-sm text-acero-700">
        Pesa más de {formatFileSize(MAX_BYTES)}, el límite por archivo; no calculamos su estimación.
      </p>
    );
  }
  if (result.status === "error") return <p className="mt-1 text-sm font-medium text-red-700">{result.message}</p>;

  const { measurement } = result;
  const price = priceMeasurement(measurement, service, quantity);
  return (
    <>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-acero-600">Volumen de la pieza</dt>
        <dd className="font-medium text-acero-900">{formatCm3(measurement.volumeMm3)}</dd>
        <dt className="text-acero-600">Dimensiones (caja envolvente)</dt>
        <dd className="font-medium text-acero-900">{formatBox(measurement.bbox)}</dd>
        <dt className="text-acero-600">Triángulos</dt>
        <dd className="text-acero-900">{formatNumber(measurement.triangles)}</dd>
      </dl>
      {measurement.closed ? null : (
        <p className="mt-2 rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">La malla no está cerrada: el volumen es aproximado.</p>
      )}
      {result.mesh ? <PartViewer source={{ kind: "mesh", mesh: result.mesh }} label={name} dimensions={formatBox(measurement.bbox)} /> : null}
      {price ? <IndicativePrice price={price} quantity={quantity} rangeNote={rangeNote} /> : null}
    </>
  );
}

/** The price range of one part, with the quantity and what the bounds stand for (STL and CAD files alike). */
export function IndicativePrice({ price, quantity, rangeNote }: { price: { minCentavos: number; maxCentavos: number }; quantity: number; rangeNote: string | undefined }) {
  return (
    <div className="mt-3 border-t border-acero-100 pt-3">
      <p className="text-base font-semibold text-forja-700">
        Precio indicativo: {formatMoney(price.minCentavos)} – {formatMoney(price.maxCentavos)} MXN, IVA incluido
      </p>
      <p className="mt-1 text-sm text-acero-600">
        {`Por ${formatUnitQuantity(quantity, "pieza")}.`} {rangeNote}
      </p>
      <p className="mt-1 text-sm text-acero-600">Es una estimación automática; la cotización formal la envía nuestro equipo.</p>
    </div>
  );
}

/** Why there is no price yet: no service chosen, or one without automatic prices. Nothing when there is a rule. */
export function PriceHint({ service }: { service: string | undefined }) {
  if (getPriceRule(service)) return null;
  const serviceLabel = SERVICE_OPTIONS.find((option) => option.value === service)?.label;
  return serviceLabel ? (
    <> Para «{serviceLabel}» no damos precio automático: nuestro equipo lo cotiza con su archivo.</>
  ) : (
    <> Elija «Prototipado rápido» o «Maquinado CNC» en el campo Servicio para ver un precio indicativo.</>
  );
}

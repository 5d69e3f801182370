import { useEffect, useId, useMemo, useRef, useState } from "react";
import { PartViewer } from "~/components/part-viewer/part-viewer";
import type { ViewerMesh } from "~/components/part-viewer/viewer-mesh";
import { formatFileSize } from "~/lib/format";
import { rescaleFigures, UNIT_NAMES, unitChoices, type CadFigures, type CadUnit } from "../cad-units";
import { createCadReader, workerFormat, type CadReader } from "../cad-reader";
import { priceMeasurement } from "../estimate";
import { UPLOAD_LIMITS } from "../forms";
import { getPriceRule, normalizeQuantity } from "../price-rules";
import { formatBox, formatCm3, IndicativePrice, PriceHint } from "./stl-estimate";

// Instant estimate of STEP, IGES, OBJ and 3MF files on /cotiza. Each file is read in a Web Worker
// created only when such a file is chosen (STEP and IGES by OpenCascade in WebAssembly, OBJ and 3MF
// without it); nothing is sent until the form is. Beside each estimate, a 3D preview of the part
// from the same triangles.

export type CadFileResult =
  | { status: "leyendo" }
  /** `mesh`: the tessellation for the 3D preview (the worker always sends it). */
  | { status: "listo"; figures: CadFigures; unit: CadUnit | null; mesh?: ViewerMesh }
  | { status: "error" }
  | { status: "muy-grande" };

export interface CadEstimateItem {
  key: string;
  name: string;
  result: CadFileResult;
}

/** The region's title; the browser tests find the region by it. */
export const CAD_REGION_TITLE = "Estimación instantánea de sus archivos STEP, IGES, OBJ y 3MF";
export const CAD_UNREADABLE = "No pudimos leer la geometría; la revisaremos al recibir su solicitud.";
const MAX_BYTES = UPLOAD_LIMITS.maxFileBytes;

const fileKey = (file: File, index: number) => `${index}-${file.name}-${file.size}-${file.lastModified}`;

export function CadEstimate({ files, service, quantity }: { files: File[]; service: string | undefined; quantity: number | undefined }) {
  const cadFiles = useMemo(() => files.filter((file) => workerFormat(file.name) !== null), [files]);
  // Results are kept per File: changing the service, quantity or unit never reads a file again.
  const cache = useRef(new WeakMap<File, CadFileResult>());
  const reader = useRef<CadReader | null>(null);
  const [, setVersion] = useState(0);
  const [units, setUnits] = useState<Record<string, CadUnit>>({});

  useEffect(() => {
    let cancelled = false;
    const store = (file: File, result: CadFileResult) => {
      if (cancelled) return;
      cache.current.set(file, result);
      setVersion((version) => version + 1);
    };
    const pending = cadFiles.filter((file) => !cache.current.has(file));
    if (pending.length === 0) return;

    for (const file of pending) if (file.size > MAX_BYTES) store(file, { status: "muy-grande" });
    const toRead = pending.filter((file) => file.size <= MAX_BYTES);
    if (toRead.length === 0) return;

    // The worker (and the kernel) are fetched only now, the first time such a file is chosen.
    reader.current ??= createCadReader();
    const current = reader.current;
    void (async () => {
      for (const file of toRead) {
        let bytes: ArrayBuffer;
        try {
          bytes = await file.arrayBuffer();
        } catch {
          store(file, { status: "error" });
          continue;
        }
        if (cancelled) return;
        current.read(workerFormat(file.name)!, bytes).then(
          (answer) => store(file, answer.ok ? { status: "listo", figures: answer.figures, unit: answer.unit, mesh: answer.mesh } : { status: "error" }),
          // The worker script or the kernel could not load (offline, blocked): the file gets the note.
          () => store(file, { status: "error" }),
        );
      }
    })();
    return () => {
      // Files still being read are read again if they are still chosen (the cache has no entry for them).
      cancelled = true;
    };
  }, [cadFiles]);

  useEffect(
    () => () => {
      reader.current?.dispose();
      reader.current = null;
    },
    [],
  );

  if (cadFiles.length === 0) return null;
  const items = cadFiles.map((file, index) => ({
    key: fileKey(file, index),
    name: file.name,
    result: cache.current.get(file) ?? { status: "leyendo" as const },
  }));
  return (
    <CadEstimateView items={items} service={service} quantity={quantity} units={units} onUnitChange={(key, unit) => setUnits((current) => ({ ...current, [key]: unit }))} />
  );
}

const area = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 2 });
/** Surface area in cm² (es-MX), matching the volume in cm³. */
export const formatCm2 = (mm2: number) => `${area.format(mm2 / 100)} cm²`;

/** The unit a file's figures are shown in: the customer's choice, else the declared one, else mm. */
export function shownUnit(declared: CadUnit | null, chosen: CadUnit | undefined): CadUnit {
  return chosen ?? declared ?? "mm";
}

export function CadEstimateView({
  items,
  service,
  quantity,
  units,
  onUnitChange,
}: {
  items: CadEstimateItem[];
  service: string | undefined;
  quantity: number | undefined;
  units: Record<string, CadUnit>;
  onUnitChange: (key: string, unit: CadUnit) => void;
}) {
  const headingId = useId();
  const busy = items.some((item) => item.result.status === "leyendo");
  const pieces = normalizeQuantity(quantity);

  return (
    <section aria-labelledby={headingId} className="rounded-md border border-acero-200 bg-acero-50 p-4">
      <h3 id={headingId} className="text-base font-semibold text-acero-900">
        {CAD_REGION_TITLE}
      </h3>
      <p className="mt-1 text-sm text-acero-600">
        Calculada en su navegador a partir del modelo 3D, en las unidades que indica el archivo.
        <PriceHint service={service} />
      </p>
      <div aria-live="polite" aria-busy={busy} className="mt-3 space-y-3">
        {items.map((item) => (
          <article key={item.key} className="rounded-md border border-acero-200 bg-white p-3">
            <h4 className="text-sm font-semibold break-all text-acero-900">{item.name}</h4>
            <CadResult item={item} service={service} quantity={pieces} unit={units[item.key]} onUnitChange={(unit) => onUnitChange(item.key, unit)} />
          </article>
        ))}
      </div>
    </section>
  );
}

function CadResult({
  item,
  service,
  quantity,
  unit,
  onUnitChange,
}: {
  item: CadEstimateItem;
  service: string | undefined;
  quantity: number;
  unit: CadUnit | undefined;
  onUnitChange: (unit: CadUnit) => void;
}) {
  const groupId = useId();
  const { result } = item;
  if (result.status === "leyendo") return <p className="mt-1 text-sm text-acero-600">Leyendo geometría…</p>;
  if (result.status === "muy-grande") {
    return (
      <p className="mt-1 text-sm text-acero-700">
        Pesa más de {formatFileSize(MAX_BYTES)}, el límite por archivo; no calculamos su estimación.
      </p>
    );
  }
  if (result.status === "error") return <p className="mt-1 text-sm font-medium text-red-700">{CAD_UNREADABLE}</p>;

  const chosen = shownUnit(result.unit, unit);
  const figures = rescaleFigures(result.figures, result.unit, chosen);
  const rule = getPriceRule(service);
  const price = priceMeasurement(figures, service, quantity);
  return (
    <>
      <p className="mt-1 text-sm text-acero-700">
        {result.unit ? `Unidades detectadas: ${UNIT_NAMES[result.unit]}.` : "El archivo no indica sus unidades; suponemos milímetros."}
      </p>
      <fieldset className="mt-2">
        <legend className="text-sm font-medium text-acero-900">Unidades del modelo</legend>
        <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
          {unitChoices(result.unit).map((choice) => (
            <label key={choice} className="inline-flex items-center gap-2 text-sm text-acero-900">
              <input type="radio" name={`${groupId}-unidades`} value={choice} checked={chosen === choice} onChange={() => onUnitChange(choice)} className="size-6 shrink-0 accent-forja-600" />
              {capitalize(UNIT_NAMES[choice])}
            </label>
          ))}
        </div>
      </fieldset>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-acero-600">Volumen de la pieza</dt>
        <dd className="font-medium text-acero-900">{formatCm3(figures.volumeMm3)}</dd>
        <dt className="text-acero-600">Área de superficie</dt>
        <dd className="text-acero-900">{formatCm2(figures.areaMm2)}</dd>
        <dt className="text-acero-600">Dimensiones (caja envolvente)</dt>
        <dd className="font-medium text-acero-900">{formatBox(figures.bbox)}</dd>
      </dl>
      {figures.closed ? null : (
        <p className="mt-2 rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900">El modelo no forma un sólido cerrado: el volumen es aproximado.</p>
      )}
      {result.mesh ? <PartViewer source={{ kind: "mesh", mesh: result.mesh }} label={item.name} dimensions={formatBox(figures.bbox)} /> : null}
      {price ? <IndicativePrice price={price} quantity={quantity} rangeNote={rule?.rangeNote} /> : null}
    </>
  );
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

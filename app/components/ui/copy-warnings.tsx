import type { CopyWarning } from "~/lib/copy-check";

// A field's Spanish copy warnings (~/lib/copy-check), shown under it while staff type. They advise and
// never block: the record saves and publishes all the same. The region is always rendered, empty or
// not, so screen readers announce a warning as it appears; the field points at it with
// aria-describedby={copyWarningsId(field id)}.

/** The id of a field's warnings, for the field's aria-describedby. */
export function copyWarningsId(fieldId: string): string {
  return `${fieldId}-redaccion`;
}

export function CopyWarnings({ fieldId, warnings }: { fieldId: string; warnings: readonly (CopyWarning & { block?: number })[] }) {
  return (
    <div id={copyWarningsId(fieldId)} aria-live="polite" className="mt-1 text-sm">
      {warnings.length ? (
        <div className="rounded-md border border-amber-200 bg-amber-50 p-2 text-amber-900">
          <p className="font-semibold">
            {warnings.length === 1 ? "Una sugerencia de redacción" : `${warnings.length} sugerencias de redacción`} (puede guardar y publicar de todos modos):
          </p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {warnings.map((warning) => (
              <li key={`${warning.block ?? ""}:${warning.code}:${warning.excerpt}`}>{warning.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

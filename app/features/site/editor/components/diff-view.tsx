import { mediaUrl, type MediaView } from "~/lib/media";
import type { DiffPart, FieldDiff } from "~/services/content/diff";

// The difference between two versions of a record, field by field (docs/decisions/0037): a changed
// sentence shows as that sentence, struck out where it left and marked where it arrived. `sides`
// names the two columns of the conflict screen; without it, one column reads before → after.

/** A stored value as people read it. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "(vacío)";
  if (value === true) return "Sí";
  if (value === false) return "No";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** The images a diff names (an image field holds a media id), by id: shown as the image, not its id. */
export type DiffImages = Readonly<Record<string, MediaView>>;

function Value({ value, images }: { value: unknown; images?: DiffImages }) {
  const image = typeof value === "string" ? images?.[value] : undefined;
  if (!image) return <>{displayValue(value)}</>;
  const width = image.widths[0] ?? 320;
  return (
    <span className="inline-flex items-center gap-2 align-middle">
      <img src={mediaUrl(image.id, width, "webp")} alt="" width={64} height={Math.max(1, Math.round((64 * image.height) / Math.max(1, image.width)))} className="h-auto w-16 rounded border border-acero-200" loading="lazy" />
      <span>{image.alt ? `Imagen: ${image.alt}` : "Imagen sin texto alternativo"}</span>
    </span>
  );
}

function Parts({ parts, show }: { parts: readonly DiffPart[]; show: readonly DiffPart["op"][] }) {
  const visible = parts.filter((part) => show.includes(part.op));
  if (!visible.length) return <span className="text-acero-600">(vacío)</span>;
  return (
    <>
      {visible.map((part, index) =>
        part.op === "removed" ? (
          <del key={index} className="mr-1 bg-red-50 text-red-800">
            <span className="sr-only">Quitado: </span>
            {part.text}
          </del>
        ) : part.op === "added" ? (
          <ins key={index} className="mr-1 bg-green-50 text-green-900 no-underline">
            <span className="sr-only">Agregado: </span>
            {part.text}
          </ins>
        ) : (
          <span key={index} className="mr-1">
            {part.text}
          </span>
        ),
      )}
    </>
  );
}

export function DiffView({ diff, sides, caption, images }: { diff: readonly FieldDiff[]; sides?: { before: string; after: string }; caption: string; images?: DiffImages }) {
  if (!diff.length) return <p className="mt-3 text-acero-700">Las dos versiones son iguales.</p>;
  return (
    <table className="mt-3 w-full table-fixed border-collapse text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-acero-50 text-left text-acero-800">
        <tr>
          <th scope="col" className="w-40 border border-acero-200 px-3 py-2 font-semibold">
            Campo
          </th>
          {sides ? (
            <>
              <th scope="col" className="border border-acero-200 px-3 py-2 font-semibold">
                {sides.before}
              </th>
              <th scope="col" className="border border-acero-200 px-3 py-2 font-semibold">
                {sides.after}
              </th>
            </>
          ) : (
            <th scope="col" className="border border-acero-200 px-3 py-2 font-semibold">
              Cambios
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {diff.map((change) => (
          <tr key={change.field} data-testid="diff-row" className="align-top">
            <th scope="row" className="border border-acero-200 px-3 py-2 text-left font-semibold wrap-anywhere">
              {change.label}
            </th>
            {change.kind === "text" ? (
              sides ? (
                <>
                  <td className="border border-acero-200 px-3 py-2 wrap-anywhere">
                    <Parts parts={change.parts} show={["same", "removed"]} />
                  </td>
                  <td className="border border-acero-200 px-3 py-2 wrap-anywhere">
                    <Parts parts={change.parts} show={["same", "added"]} />
                  </td>
                </>
              ) : (
                <td className="border border-acero-200 px-3 py-2 wrap-anywhere">
                  <Parts parts={change.parts.filter((part) => part.op !== "same")} show={["removed", "added"]} />
                </td>
              )
            ) : sides ? (
              <>
                <td className="border border-acero-200 px-3 py-2 wrap-anywhere">
                  <Value value={change.before} images={images} />
                </td>
                <td className="border border-acero-200 px-3 py-2 wrap-anywhere">
                  <Value value={change.after} images={images} />
                </td>
              </>
            ) : (
              <td className="border border-acero-200 px-3 py-2 wrap-anywhere">
                <del className="bg-red-50 text-red-800">
                  <span className="sr-only">Antes: </span>
                  <Value value={change.before} images={images} />
                </del>{" "}
                →{" "}
                <ins className="bg-green-50 text-green-900 no-underline">
                  <span className="sr-only">Después: </span>
                  <Value value={change.after} images={images} />
                </ins>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

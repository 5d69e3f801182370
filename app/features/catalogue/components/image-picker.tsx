import type { FieldMetadata } from "@conform-to/react";
import { useEffect, useState } from "react";
import { FieldError } from "~/components/ui/form";
import { formatFileSize } from "~/lib/format";
import { IMAGE_LIMITS, MAX_IMAGES_PER_PRODUCT } from "../images";

interface Preview {
  url: string;
  name: string;
  size: number;
  problem: string | null;
}

const ACCEPTED = ["image/png", "image/jpeg"];


/**
 * A plain file input (it works without JavaScript); with JavaScript, a preview of every chosen
 * image before it is uploaded, with a warning for files the server would refuse.
 */
export function ImagePicker({ field, existing }: { field: FieldMetadata<unknown>; existing: number }) {
  const [previews, setPreviews] = useState<Preview[]>([]);
  const room = Math.max(0, MAX_IMAGES_PER_PRODUCT - existing);

  // Object URLs hold the file in memory until revoked.
  useEffect(() => () => previews.forEach((preview) => URL.revokeObjectURL(preview.url)), [previews]);

  const helpId = `${field.id}-ayuda`;
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-acero-900">
        Fotografías (PNG o JPG)
      </label>
      <input
        id={field.id}
        name={field.name}
        type="file"
        multiple
        accept="image/png,image/jpeg,.png,.jpg,.jpeg"
        aria-describedby={helpId}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-errormessage={field.errors?.length ? field.errorId : undefined}
        disabled={room === 0}
        className="mt-1 block w-full text-sm text-acero-800 file:mr-4 file:rounded-md file:border-0 file:bg-acero-900 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-white hover:file:bg-acero-800"
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          setPreviews(
            files.map((file) => ({
              url: URL.createObjectURL(file),
              name: file.name,
              size: file.size,
              problem: !ACCEPTED.includes(file.type)
                ? "No es PNG ni JPG: el servidor la rechazará."
                : file.size > IMAGE_LIMITS.maxFileBytes
                  ? `Pesa ${formatFileSize(file.size)}; el máximo es ${formatFileSize(IMAGE_LIMITS.maxFileBytes)}.`
                  : null,
            })),
          );
        }}
      />
      <p id={helpId} className="mt-1 text-sm text-acero-600">
        {room === 0
          ? `Este producto ya tiene ${MAX_IMAGES_PER_PRODUCT} imágenes, el máximo. Quite alguna para subir otra.`
          : `Hasta ${Math.min(room, IMAGE_LIMITS.maxFiles)} a la vez, ${formatFileSize(IMAGE_LIMITS.maxFileBytes)} cada una. Se convierten a WebP en 320, 640, 1024 y 1600 px de ancho (nunca se agrandan). Mejor con fondo claro y la pieza centrada.`}
      </p>
      <FieldError field={field} />
      {previews.length ? (
        <ul className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4" aria-label="Vista previa de las imágenes elegidas">
          {previews.map((preview) => (
            <li key={preview.url} className="overflow-hidden rounded-md border border-acero-200 bg-white">
              <img src={preview.url} alt={`Vista previa de ${preview.name}`} className="aspect-square w-full bg-acero-50 object-contain" />
              <p className="truncate px-2 pt-1 text-xs text-acero-800" title={preview.name}>
                {preview.name}
              </p>
              <p className={`px-2 pb-2 text-xs ${preview.problem ? "font-medium text-red-700" : "text-acero-600"}`}>{preview.problem ?? formatFileSize(preview.size)}</p>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

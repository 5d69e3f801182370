import { formatFileSize } from "~/lib/format";

/** Bytes sent of the upload, for people attaching large CAD files. */
export function UploadProgress({ loaded, total }: { loaded: number; total: number }) {
  const percent = total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0;
  return (
    <div className="space-y-1" data-testid="upload-progress">
      <div className="flex justify-between text-sm text-acero-800">
        <span id="progreso-envio">Enviando archivos…</span>
        <span>
          {formatFileSize(loaded)} de {formatFileSize(total)} ({percent} %)
        </span>
      </div>
      <progress aria-labelledby="progreso-envio" max={total || 1} value={loaded} className="h-2 w-full accent-forja-600">
        {percent} %
      </progress>
    </div>
  );
}

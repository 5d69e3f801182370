import { useEffect, useState, type MouseEvent } from "react";

// «Vista previa» on a record's form (docs/decisions/0049): the record's public address with its
// draft, in a new tab. What is on screen is saved first (the pending autosave is not waited for):
// the preview shows what is stored, so it opens only once the save succeeded.

export interface PreviewLinkProps {
  /** The public address with `?vista-previa=<id>` (from the loader, current after each save). */
  href: string;
  /** Changes on screen that are not stored yet and may be saved now. */
  unsaved: boolean;
  /** A save is on its way (or its answer not yet applied). */
  saving: boolean;
  /** The last save was refused (the form says why). */
  failed: boolean;
  /** Saves what is on screen as the draft. */
  flush: () => void;
}

export function PreviewLink({ href, unsaved, saving, failed, flush }: PreviewLinkProps) {
  const [waiting, setWaiting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!waiting || saving) return;
    if (failed) {
      setWaiting(false);
      setProblem("La vista previa no se abrió porque no se pudieron guardar sus cambios; corrija lo indicado y vuelva a intentarlo.");
      return;
    }
    if (unsaved) {
      flush();
      return;
    }
    setWaiting(false);
    const opened = window.open(href, "_blank");
    if (opened) opened.opener = null;
    else setProblem("Su navegador no abrió la pestaña nueva. Sus cambios ya están guardados: use «Vista previa» otra vez.");
  }, [waiting, saving, failed, unsaved, flush, href]);

  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    setProblem(null);
    // Nothing pending: the link opens the stored draft by itself.
    if (!unsaved && !saving) return;
    event.preventDefault();
    setWaiting(true);
    if (!saving) flush();
  };

  return (
    <div className="flex flex-col items-end gap-1">
      <a href={href} target="_blank" rel="noopener" onClick={open} aria-describedby="vista-previa-ayuda" className="btn-secondary py-2 text-sm" data-testid="preview-link">
        {waiting ? "Guardando para la vista previa…" : "Vista previa"}
      </a>
      <span id="vista-previa-ayuda" className="sr-only">
        Abre en una pestaña nueva la página pública con este borrador; solo el personal la ve.
      </span>
      {problem ? (
        <p role="alert" className="max-w-xs text-right text-sm font-semibold text-red-700">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { mediaUrl, type MediaView } from "~/lib/media";

// Images of the media library in the content editor (docs/decisions/0050): a dialog that lists the
// library (thumbnails, alt text, a search by alt text, arrows between the images), shared by the
// image fields (a service's `imagen`, the logo) and the long texts' «Imagen» button. The list comes
// from /admin/medios/biblioteca; the images the record already names come with the page.

/** Where the picker reads the library: staff with the content area, JSON. */
export const MEDIA_LIBRARY_URL = "/admin/medios/biblioteca";

interface MediaLibraryValue {
  /** The library images this form knows (those the record names, and each one picked since). */
  views: Readonly<Record<string, MediaView>>;
  /** Opens the dialog; resolves to the chosen image, or null when the person cancels. */
  pick: () => Promise<MediaView | null>;
}

const MediaLibraryContext = createContext<MediaLibraryValue | null>(null);

export function useMediaLibrary(): MediaLibraryValue | null {
  return useContext(MediaLibraryContext);
}

/** A small copy of an image for lists: the narrowest WebP made. */
export function mediaThumbnail(image: MediaView): string {
  return mediaUrl(image.id, image.widths[0] ?? image.width, "webp");
}

/** A size that keeps the image's proportions inside `box` × `box` pixels. */
function fitted(image: MediaView, box: number) {
  const scale = Math.min(1, box / Math.max(image.width, image.height));
  return { width: Math.max(1, Math.round(image.width * scale)), height: Math.max(1, Math.round(image.height * scale)) };
}

/** Gives its children the library (the images of `initial` known at once) and draws the one dialog they open. */
export function MediaLibrary({ initial, children }: { initial: Readonly<Record<string, MediaView>>; children: ReactNode }) {
  const [views, setViews] = useState<Record<string, MediaView>>(() => ({ ...initial }));
  const [open, setOpen] = useState(false);
  const pending = useRef<((image: MediaView | null) => void) | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  const pick = useCallback(() => {
    // A second call while the dialog is open answers the first with nothing.
    pending.current?.(null);
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(true);
    return new Promise<MediaView | null>((resolve) => {
      pending.current = resolve;
    });
  }, []);

  const close = useCallback((image: MediaView | null) => {
    if (image) setViews((old) => ({ ...old, [image.id]: image }));
    setOpen(false);
    const resolve = pending.current;
    pending.current = null;
    resolve?.(image);
  }, []);

  // Once the dialog is gone, back where the person was (the button that opened it), unless the
  // caller has put the focus somewhere already (the long text's editor, after inserting the image).
  useEffect(() => {
    if (open || !opener.current) return;
    const back = opener.current;
    opener.current = null;
    if ((document.activeElement === document.body || document.activeElement === null) && back.isConnected) back.focus();
  }, [open]);

  const value = useMemo(() => ({ views, pick }), [views, pick]);
  return (
    <MediaLibraryContext.Provider value={value}>
      {children}
      {open ? <MediaDialog onClose={close} /> : null}
    </MediaLibraryContext.Provider>
  );
}

interface LibraryAnswer {
  buscar: string;
  imagenes: MediaView[];
}

function MediaDialog({ onClose }: { onClose: (image: MediaView | null) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState("");
  const fetcher = useFetcher<LibraryAnswer>();
  const titleId = useId();
  const statusId = useId();
  const searchId = useId();
  const load = fetcher.load;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    search.current?.focus();
  }, []);

  // The list for what is typed, a moment after typing stops (at once when the dialog opens).
  const first = useRef(true);
  useEffect(() => {
    const url = `${MEDIA_LIBRARY_URL}?buscar=${encodeURIComponent(query.trim())}`;
    if (first.current) {
      first.current = false;
      void load(url);
      return;
    }
    const timer = setTimeout(() => void load(url), 250);
    return () => clearTimeout(timer);
  }, [query, load]);

  const answer = fetcher.data && Array.isArray(fetcher.data.imagenes) ? fetcher.data : null;
  const images = answer?.imagenes ?? [];
  const loading = fetcher.state !== "idle" || !answer;
  const status = !answer
    ? fetcher.state === "idle" && fetcher.data !== undefined
      ? "No se pudo cargar la biblioteca. Cierre y vuelva a intentarlo."
      : "Cargando la biblioteca…"
    : images.length === 0
      ? answer.buscar
        ? `Ninguna imagen coincide con «${answer.buscar}».`
        : "La biblioteca no tiene imágenes todavía."
      : images.length === 1
        ? "1 imagen."
        : `${images.length.toLocaleString("es-MX")} imágenes.`;

  const buttons = () => Array.from(list.current?.querySelectorAll<HTMLButtonElement>("button[data-media-id]") ?? []);
  // Arrows, Home and End move between the images (Tab still leaves the list).
  const onListKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const all = buttons();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const columns = Math.max(1, Math.round((list.current?.clientWidth ?? 1) / Math.max(1, all[0]?.parentElement?.clientWidth ?? 1)));
    const next: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, ArrowDown: at + columns, ArrowUp: at - columns, Home: 0, End: all.length - 1 };
    if (!(event.key in next)) return;
    event.preventDefault();
    if (event.key === "ArrowUp" && at - columns < 0) {
      search.current?.focus();
      return;
    }
    all[Math.max(0, Math.min(all.length - 1, next[event.key]!))]?.focus();
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={statusId}
      // Esc: the browser closes the dialog; we answer "nothing chosen".
      onCancel={(event) => {
        event.preventDefault();
        onClose(null);
      }}
      className="m-auto w-[min(56rem,calc(100vw-2rem))] max-h-[calc(100vh-2rem)] rounded-lg bg-white p-0 text-acero-900 shadow-xl backdrop:bg-acero-950/60"
    >
      <div className="flex max-h-[calc(100vh-2rem)] flex-col">
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-acero-200 p-5">
          <div>
            <h2 id={titleId} className="text-lg font-bold">
              Elegir una imagen de la biblioteca
            </h2>
            <p className="mt-1 text-sm text-acero-700">
              Use las flechas para moverse entre las imágenes y Entrar para elegir una.{" "}
              <a href="/admin/medios" target="_blank" rel="noopener" className="font-semibold text-forja-700 underline underline-offset-2">
                Subir una imagen nueva (se abre en otra pestaña)
              </a>
            </p>
          </div>
          <button type="button" className="btn-secondary py-2 text-sm" onClick={() => onClose(null)}>
            Cancelar
          </button>
        </div>
        <div className="border-b border-acero-200 px-5 py-3">
          <label htmlFor={searchId} className="block text-sm font-semibold">
            Buscar por texto alternativo
          </label>
          <input
            ref={search}
            id={searchId}
            type="search"
            value={query}
            autoComplete="off"
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") event.preventDefault();
              if (event.key === "ArrowDown") {
                event.preventDefault();
                buttons()[0]?.focus();
              }
            }}
            className="mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base shadow-sm focus:border-forja-600"
          />
          <p id={statusId} role="status" className="mt-2 text-sm text-acero-700" aria-busy={loading}>
            {status}
          </p>
        </div>
        <ul ref={list} aria-label="Imágenes de la biblioteca" onKeyDown={onListKey} className="grid min-h-0 flex-1 grid-cols-2 gap-3 overflow-y-auto p-5 sm:grid-cols-3 lg:grid-cols-4">
          {images.map((image) => {
            const size = fitted(image, 400);
            return (
              <li key={image.id} className="min-w-0">
                <button
                  type="button"
                  data-media-id={image.id}
                  onClick={() => onClose(image)}
                  className="flex h-full w-full flex-col overflow-hidden rounded-md border border-acero-200 bg-acero-50 text-left hover:border-forja-600 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-forja-600"
                >
                  <img src={mediaThumbnail(image)} alt="" width={size.width} height={size.height} loading="lazy" decoding="async" className="aspect-4/3 w-full bg-white object-contain" />
                  <span className="block p-2 text-sm text-acero-900">{image.alt}</span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </dialog>
  );
}

/** An image field: the chosen image (thumbnail and alt text), «Elegir imagen» and «Quitar imagen». */
export function MediaField({
  id,
  label,
  help,
  helpId,
  errorId,
  error,
  value,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  help?: ReactNode;
  helpId?: string;
  errorId: string;
  error?: ReactNode;
  value: string | null;
  disabled?: boolean;
  onChange: (value: string | null) => void;
}) {
  const library = useMediaLibrary();
  const chooseButton = useRef<HTMLButtonElement>(null);
  const chosen = value ? (library?.views[value] ?? null) : null;
  const describedBy = [helpId, error ? errorId : null].filter(Boolean).join(" ");
  const choose = async () => {
    const image = await library?.pick();
    if (image) onChange(image.id);
  };
  return (
    <fieldset id={id} aria-describedby={describedBy} data-testid="media-field">
      <legend className="block text-sm font-semibold text-acero-900">
        {label} <span className="font-normal text-acero-600">(opcional)</span>
      </legend>
      {help}
      <div className="mt-2 flex flex-wrap items-center gap-4 rounded-md border border-acero-200 bg-acero-50 p-3">
        {chosen ? (
          <>
            <img src={mediaThumbnail(chosen)} alt={chosen.alt} {...fitted(chosen, 160)} className="h-24 w-32 rounded bg-white object-contain" />
            <p className="min-w-0 flex-1 text-sm text-acero-800">
              <span className="font-semibold">Imagen elegida:</span> {chosen.alt}
            </p>
          </>
        ) : (
          <p className="min-w-0 flex-1 text-sm text-acero-700">{value ? "La imagen elegida ya no está en la biblioteca: elija otra o quítela." : "Sin imagen."}</p>
        )}
        <div className="flex flex-wrap gap-2">
          <button ref={chooseButton} type="button" className="btn-secondary py-2 text-sm" disabled={disabled || !library} onClick={() => void choose()}>
            Elegir imagen
          </button>
          {value ? (
            <button
              type="button"
              className="btn-secondary py-2 text-sm"
              disabled={disabled}
              onClick={() => {
                onChange(null);
                // This button goes away: keep the keyboard in the field.
                chooseButton.current?.focus();
              }}
            >
              Quitar imagen
            </button>
          ) : null}
        </div>
      </div>
      {error}
    </fieldset>
  );
}

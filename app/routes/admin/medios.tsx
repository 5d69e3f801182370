import { useState, type MouseEvent } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/medios";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { FormErrors, FormNotice } from "~/components/ui/form";
import { MediaPicture } from "~/components/ui/media-picture";
import { requireStaffArea } from "~/features/accounts/guards.server";
import { deleteMedia, getMedia, listMedia, updateMediaDetails } from "~/features/site/media/media-library.server";
import { MEDIA_LIMITS } from "~/features/site/media/media";
import { uploadMedia } from "~/features/site/media/media-uploads.server";
import { formatFileSize } from "~/lib/format";
import { readForm } from "~/lib/request-body";
import { requestMeta } from "~/lib/request-meta";
import { failureMessages, failureStatus } from "~/lib/result";
import { pageMeta } from "~/lib/seo";
import { parseMultipartUpload } from "~/services/files/multipart.server";
import { removeQuietly, uploadsTmpDir } from "~/services/files/storage.server";

// The media library (issue 16 §3, docs/decisions/0046): every image with its alt text and size,
// an upload form, the alt text and focal point of one image, and deleting (asked first when in use).

export const meta: Route.MetaFunction = () => pageMeta({ title: "Imágenes", description: "La biblioteca de imágenes del sitio.", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaffArea(requestMeta(request, context), "contenido");
  const url = new URL(request.url);
  const search = url.searchParams.get("q") ?? "";
  const selectedId = url.searchParams.get("imagen");
  const [images, selected] = await Promise.all([listMedia(search), selectedId ? getMedia(selectedId) : null]);
  return {
    search,
    images,
    selected,
    notice: url.searchParams.has("subida") ? "Imagen agregada a la biblioteca." : url.searchParams.has("eliminada") ? "Imagen eliminada de la biblioteca." : null,
  };
}

interface ActionAnswer {
  intent: string;
  values?: Record<string, string>;
  fieldErrors?: Record<string, string[]>;
  formErrors?: string[];
  notice?: string;
  usedIn?: string[];
}

const FIELDS = ["alt", "focoX", "focoY"] as const;
const valuesOf = (form: FormData) => Object.fromEntries(FIELDS.map((name) => [name, String(form.get(name) ?? "")]));

export async function action({ request, context }: Route.ActionArgs) {
  await requireStaffArea(requestMeta(request, context), "contenido");
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    const upload = await parseMultipartUpload(request, MEDIA_LIMITS, uploadsTmpDir());
    if (!upload.ok) return data<ActionAnswer>({ intent: "subir", values: valuesOf(upload.fields), formErrors: [upload.message] }, { status: upload.status });
    try {
      const values = valuesOf(upload.fields);
      const result = await uploadMedia(
        upload.files.find((file) => file.field === "archivo"),
        values,
      );
      if (result.ok) throw redirect(`/admin/medios?subida=1&imagen=${result.value.id}`);
      const { fieldErrors, formErrors } = failureMessages(result);
      return data<ActionAnswer>({ intent: "subir", values, fieldErrors, formErrors }, { status: failureStatus(result) });
    } finally {
      await removeQuietly(upload.files.map((file) => file.tmpPath));
    }
  }
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  if (intent === "guardar") {
    const values = valuesOf(form);
    const result = await updateMediaDetails(id, values);
    if (result.ok) return data<ActionAnswer>({ intent, notice: "Cambios guardados." });
    const { fieldErrors, formErrors } = failureMessages(result);
    return data<ActionAnswer>({ intent, values, fieldErrors, formErrors }, { status: failureStatus(result) });
  }
  if (intent === "eliminar") {
    const result = await deleteMedia(id, form.get("confirmado") === "1");
    if (!result.ok) return data<ActionAnswer>({ intent, formErrors: failureMessages(result).formErrors }, { status: failureStatus(result) });
    if (result.value.deleted) throw redirect("/admin/medios?eliminada=1");
    return data<ActionAnswer>({ intent, usedIn: result.value.usedIn }, { status: 409 });
  }
  return data<ActionAnswer>({ intent, formErrors: ["No pudimos leer la solicitud. Recargue la página e intente de nuevo."] }, { status: 400 });
}

const inputClass = "mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-acero-900";
const smallButton = "rounded-md border border-acero-300 px-3 py-1 text-sm font-medium hover:bg-acero-50";

function FieldMessage({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="mt-1 text-sm font-medium text-red-700">
      {errors[0]}
    </p>
  );
}

/** The two focal-point inputs (the keyboard's way), kept in step with clicks on the image. */
function FocusInputs({ prefix, x, y, onChange, errors }: { prefix: string; x: string; y: string; onChange: (x: string, y: string) => void; errors?: Record<string, string[]> }) {
  return (
    <fieldset className="grid grid-cols-2 gap-3">
      <legend className="text-sm font-semibold text-acero-900">Punto de interés (0 a 1)</legend>
      {(["focoX", "focoY"] as const).map((name) => (
        <div key={name}>
          <label htmlFor={`${prefix}-${name}`} className="block text-sm text-acero-800">
            {name === "focoX" ? "Horizontal (0 izquierda, 1 derecha)" : "Vertical (0 arriba, 1 abajo)"}
          </label>
          <input
            id={`${prefix}-${name}`}
            name={name}
            type="number"
            inputMode="decimal"
            min={0}
            max={1}
            step={0.01}
            value={name === "focoX" ? x : y}
            onChange={(event) => (name === "focoX" ? onChange(event.target.value, y) : onChange(x, event.target.value))}
            aria-invalid={errors?.[name]?.length ? true : undefined}
            aria-describedby={errors?.[name]?.length ? `${prefix}-${name}-error` : undefined}
            className={inputClass}
          />
          <FieldMessage id={`${prefix}-${name}-error`} errors={errors?.[name]} />
        </div>
      ))}
    </fieldset>
  );
}

function UploadForm({ answer, busy }: { answer?: ActionAnswer; busy: boolean }) {
  const values = answer?.intent === "subir" ? answer.values : undefined;
  const errors = answer?.intent === "subir" ? answer.fieldErrors : undefined;
  const [x, setX] = useState(values?.focoX || "0.5");
  const [y, setY] = useState(values?.focoY || "0.5");
  return (
    <Form method="post" encType="multipart/form-data" className="mt-4 space-y-4 rounded-lg border border-acero-200 bg-white p-4" aria-labelledby="subir-titulo">
      <h2 id="subir-titulo" className="text-lg font-semibold text-acero-900">
        Subir una imagen
      </h2>
      {answer?.intent === "subir" ? <FormErrors errors={answer.formErrors} /> : null}
      <div>
        <label htmlFor="subir-archivo" className="block text-sm font-semibold text-acero-900">
          Archivo
        </label>
        <input
          id="subir-archivo"
          name="archivo"
          type="file"
          accept="image/jpeg,image/png,image/webp,image/avif,image/gif,image/svg+xml"
          aria-describedby={errors?.archivo?.length ? "subir-archivo-ayuda subir-archivo-error" : "subir-archivo-ayuda"}
          aria-invalid={errors?.archivo?.length ? true : undefined}
          className="mt-1 block w-full text-sm text-acero-800"
        />
        <p id="subir-archivo-ayuda" className="mt-1 text-sm text-acero-600">
          JPG, PNG, WebP, AVIF o GIF de hasta {formatFileSize(MEDIA_LIMITS.maxFileBytes)}; un SVG sencillo se convierte en imagen.
        </p>
        <FieldMessage id="subir-archivo-error" errors={errors?.archivo} />
      </div>
      <div>
        <label htmlFor="subir-alt" className="block text-sm font-semibold text-acero-900">
          Texto alternativo
        </label>
        <input
          id="subir-alt"
          name="alt"
          type="text"
          defaultValue={values?.alt ?? ""}
          maxLength={250}
          aria-describedby={errors?.alt?.length ? "subir-alt-ayuda subir-alt-error" : "subir-alt-ayuda"}
          aria-invalid={errors?.alt?.length ? true : undefined}
          className={inputClass}
        />
        <p id="subir-alt-ayuda" className="mt-1 text-sm text-acero-600">
          Qué muestra la imagen, en una frase: «Brida de acero maquinada con seis barrenos».
        </p>
        <FieldMessage id="subir-alt-error" errors={errors?.alt} />
      </div>
      <FocusInputs
        prefix="subir"
        x={x}
        y={y}
        errors={errors}
        onChange={(nextX, nextY) => {
          setX(nextX);
          setY(nextY);
        }}
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Subiendo…" : "Subir imagen"}
      </button>
    </Form>
  );
}

type Selected = NonNullable<Route.ComponentProps["loaderData"]["selected"]>;

function EditPanel({ image, answer, busy }: { image: Selected; answer?: ActionAnswer; busy: boolean }) {
  const values = answer?.intent === "guardar" ? answer.values : undefined;
  const errors = answer?.intent === "guardar" ? answer.fieldErrors : undefined;
  const [x, setX] = useState(values?.focoX ?? String(image.focalX));
  const [y, setY] = useState(values?.focoY ?? String(image.focalY));
  const pointX = Math.min(1, Math.max(0, Number(x) || 0));
  const pointY = Math.min(1, Math.max(0, Number(y) || 0));
  const setFromClick = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const round = (value: number) => String(Math.round(Math.min(1, Math.max(0, value)) * 100) / 100);
    setX(round((event.clientX - box.left) / box.width));
    setY(round((event.clientY - box.top) / box.height));
  };
  return (
    <section aria-labelledby="editar-titulo" className="mt-6 rounded-lg border border-acero-200 bg-white p-4">
      <h2 id="editar-titulo" className="text-lg font-semibold text-acero-900">
        Editar «{image.originalName}»
      </h2>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <div>
          <p id="foco-ayuda" className="mb-2 text-sm text-acero-700">
            Haga clic en la imagen donde está lo importante: al recortarla, ese punto queda a la vista. También puede escribirlo abajo.
          </p>
          {/* Pointer shortcut; the number inputs are the keyboard's way to set the same point. */}
          <div className="relative cursor-crosshair" onClick={setFromClick} data-testid="foco-imagen">
            <MediaPicture image={image} sizes="(min-width: 1024px) 40vw, 90vw" className="block h-auto w-full rounded-md" />
            <span
              aria-hidden="true"
              className="pointer-events-none absolute size-5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-forja-600 shadow"
              style={{ left: `${pointX * 100}%`, top: `${pointY * 100}%` }}
            />
          </div>
        </div>
        <div className="space-y-4">
          {answer?.intent === "guardar" && answer.notice ? <FormNotice>{answer.notice}</FormNotice> : null}
          {answer?.intent === "guardar" ? <FormErrors errors={answer.formErrors} /> : null}
          <Form method="post" className="space-y-4">
            <input type="hidden" name="id" value={image.id} />
            <div>
              <label htmlFor="editar-alt" className="block text-sm font-semibold text-acero-900">
                Texto alternativo
              </label>
              <input
                id="editar-alt"
                name="alt"
                type="text"
                maxLength={250}
                defaultValue={values?.alt ?? image.alt}
                aria-invalid={errors?.alt?.length ? true : undefined}
                aria-describedby={errors?.alt?.length ? "editar-alt-error" : undefined}
                className={inputClass}
              />
              <FieldMessage id="editar-alt-error" errors={errors?.alt} />
            </div>
            <FocusInputs
              prefix="editar"
              x={x}
              y={y}
              errors={errors}
              onChange={(nextX, nextY) => {
                setX(nextX);
                setY(nextY);
              }}
            />
            <button type="submit" name="intent" value="guardar" className="btn-primary" disabled={busy}>
              Guardar cambios
            </button>
          </Form>
          <DeleteForm image={image} answer={answer} />
        </div>
      </div>
    </section>
  );
}

function DeleteForm({ image, answer }: { image: Selected; answer?: ActionAnswer }) {
  const usedIn = answer?.intent === "eliminar" ? answer.usedIn : undefined;
  return (
    <div className="border-t border-acero-200 pt-4">
      {answer?.intent === "eliminar" ? <FormErrors errors={answer.formErrors} /> : null}
      {usedIn?.length ? (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-acero-900">
          <p className="font-semibold">Esta imagen está en uso. Si la elimina, esos lugares se quedarán sin imagen.</p>
          <p className="mt-1">Se usa en: {usedIn.join(", ")}.</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="id" value={image.id} />
              <input type="hidden" name="confirmado" value="1" />
              <button type="submit" name="intent" value="eliminar" className="rounded-md bg-red-700 px-3 py-1 text-sm font-semibold text-white hover:bg-red-800">
                Eliminar de todos modos
              </button>
            </Form>
            <a href={`/admin/medios?imagen=${image.id}`} className={smallButton}>
              Conservarla
            </a>
          </div>
        </div>
      ) : (
        <Form method="post">
          <input type="hidden" name="id" value={image.id} />
          <button type="submit" name="intent" value="eliminar" className="rounded-md border border-red-300 px-3 py-1 text-sm font-medium text-red-800 hover:bg-red-50">
            Eliminar imagen
          </button>
        </Form>
      )}
    </div>
  );
}

export default function AdminMediaPage({ loaderData, actionData }: Route.ComponentProps) {
  const { images, selected, search, notice } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <main id="contenido" className="p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-acero-900">Imágenes</h1>
      <p className="mt-1 text-acero-700">Las imágenes del sitio: servicios, industrias, páginas y el logotipo las eligen de aquí.</p>
      {notice ? (
        <div className="mt-4">
          <FormNotice>{notice}</FormNotice>
        </div>
      ) : null}

      {selected ? <EditPanel key={`${selected.id}-${selected.focalX}-${selected.focalY}`} image={selected} answer={actionData} busy={busy} /> : null}

      <UploadForm answer={actionData} busy={busy} />

      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="buscar" className="block text-sm font-semibold text-acero-900">
            Buscar por texto alternativo o nombre
          </label>
          <input id="buscar" name="q" type="search" defaultValue={search} className={inputClass} />
        </div>
        <button type="submit" className={smallButton}>
          Buscar
        </button>
      </Form>

      {images.length === 0 ? (
        <p className="mt-6 text-acero-700">{search ? "Ninguna imagen coincide con la búsqueda." : "Aún no hay imágenes en la biblioteca."}</p>
      ) : (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-label="Imágenes de la biblioteca">
          {images.map((image) => (
            <li key={image.id} data-testid="media-item" className="overflow-hidden rounded-lg border border-acero-200 bg-white">
              <MediaPicture image={image} sizes="(min-width: 1280px) 22vw, (min-width: 640px) 45vw, 90vw" className="aspect-4/3 w-full object-cover" />
              <div className="p-3 text-sm">
                <p className="font-medium text-acero-900">{image.alt}</p>
                <p className="mt-1 text-acero-700">
                  {image.width} × {image.height} px · {formatFileSize(image.bytes)}
                </p>
                <a href={`/admin/medios?imagen=${image.id}`} className="mt-2 inline-block font-medium text-forja-700 underline" aria-label={`Editar «${image.alt}»`}>
                  Editar
                </a>
              </div>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}

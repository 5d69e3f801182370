import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from "react";
import { Form, useNavigate } from "react-router";
import { FieldError, FormErrors, HoneypotField, SubmitButton, TextField } from "~/components/ui/form";
import { useHydrated } from "~/lib/app-shell/use-hydrated";
import { formatFileSize } from "~/lib/format";
import { FORM_NONCE_FIELD, useFillEmptyFields, useFormVisit, type FieldFill } from "~/lib/form-visit";
import {
  CERTIFICATE_OPTIONS,
  INDUSTRY_CERTIFICATE_PRESETS,
  INDUSTRY_OPTIONS,
  NDA_TEXT,
  quoteRequestSchema,
  SERVICE_OPTIONS,
  TOLERANCE_OPTIONS,
  UPLOAD_LIMITS,
} from "../forms";
import { Choice, ChoiceGroup, SelectField } from "./choice-fields";
import { CadEstimate } from "./cad-estimate";
import { StlEstimate } from "./stl-estimate";
import { UploadProgress } from "./upload-progress";
import { PrivacyConsent } from "./privacy-consent";

export interface QuoteFormProps {
  formToken: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaults: { industry?: string; service?: string; name?: string; email?: string; company?: string; phone?: string };
  /** A signed-in customer's name, email, company and phone, known after hydration: fill only empty fields. */
  fill?: FieldFill | null;
  privacyHref: string;
}

interface ApiAnswer {
  ok: boolean;
  number?: string;
  result?: SubmissionResult<string[]>;
  formToken?: string;
}

const ACCEPT = UPLOAD_LIMITS.extensions.join(",");

/** Checks the browser can make before sending; the server checks the same and the content too. */
function checkFiles(files: File[], tolerance: string): string[] {
  const errors: string[] = [];
  if (files.length > UPLOAD_LIMITS.maxFiles) errors.push(`Puede adjuntar hasta ${UPLOAD_LIMITS.maxFiles} archivos.`);
  for (const file of files) {
    const extension = file.name.slice(file.name.lastIndexOf(".")).toLowerCase();
    if (!(UPLOAD_LIMITS.extensions as readonly string[]).includes(extension)) errors.push(`«${file.name}»: formato no aceptado.`);
    else if (file.size > UPLOAD_LIMITS.maxFileBytes) errors.push(`El archivo «${file.name}» pasa de ${formatFileSize(UPLOAD_LIMITS.maxFileBytes)}, el máximo por archivo.`);
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > UPLOAD_LIMITS.maxTotalBytes) errors.push(`Los archivos suman más de ${formatFileSize(UPLOAD_LIMITS.maxTotalBytes)}.`);
  if (tolerance === "estrictas" && !files.some((file) => file.name.toLowerCase().endsWith(".pdf"))) {
    errors.push("Con tolerancias más estrictas que ISO 2768-m, adjunte el plano en PDF con las cotas y tolerancias.");
  }
  return errors;
}

export function QuoteRequestForm({ formToken, lastResult, defaults, fill = null, privacyHref }: QuoteFormProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const fileInput = useRef<HTMLInputElement>(null);
  const sending = useRef(false);
  const [result, setResult] = useState(lastResult ?? undefined);
  const [token, setToken] = useState(formToken);
  const nonce = useFormVisit("cotiza", token);
  useFillEmptyFields("cotiza", fill);
  const [files, setFiles] = useState<File[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    setResult(lastResult ?? undefined);
    setToken(formToken);
  }, [lastResult, formToken]);

  const initial = (result?.initialValue ?? {}) as Record<string, unknown>;
  const initialString = (name: string, fallback = "") => (typeof initial[name] === "string" ? (initial[name] as string) : fallback);
  const [industry, setIndustry] = useState(initialString("industry", defaults.industry ?? ""));
  const [service, setService] = useState(initialString("service", defaults.service ?? ""));
  const [quantity, setQuantity] = useState<number | undefined>(Number(initialString("quantity")) || undefined);
  const [tolerance, setTolerance] = useState(initialString("tolerance", "iso2768m"));
  const [certificates, setCertificates] = useState<string[]>(() => {
    const submitted = initial.certificates;
    if (Array.isArray(submitted)) return submitted as string[];
    if (typeof submitted === "string") return [submitted];
    return result ? [] : (INDUSTRY_CERTIFICATE_PRESETS[defaults.industry ?? ""] ?? []);
  });

  const [form, fields] = useForm({
    id: "cotiza",
    lastResult: result,
    defaultValue: { name: defaults.name, email: defaults.email, company: defaults.company, phone: defaults.phone, tolerance: "iso2768m" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: quoteRequestSchema() }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onSubmit(event, { formData }) {
      if (!hydrated) return;
      event.preventDefault();
      // A second click before React re-renders the disabled button must not send the upload again.
      if (sending.current) return;
      const problems = checkFiles(files, tolerance);
      setFileErrors(problems);
      if (problems.length) return;
      send(formData);
    },
  });

  function syncFiles(list: FileList | null) {
    const next = list ? [...list] : [];
    setFiles(next);
    setFileErrors(checkFiles(next, tolerance));
  }

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setDragging(false);
    const input = fileInput.current;
    if (!input || !event.dataTransfer.files.length) return;
    const transfer = new DataTransfer();
    for (const file of [...(input.files ?? []), ...event.dataTransfer.files]) transfer.items.add(file);
    input.files = transfer.files;
    syncFiles(input.files);
  }

  function send(formData: FormData) {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/cotiza");
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (event) => setProgress({ loaded: event.loaded, total: event.total });
    request.onloadend = () => {
      sending.current = false;
    };
    request.onerror = () => {
      setProgress(null);
      setFileErrors(["Se perdió la conexión mientras se enviaban los archivos. Revise su conexión e intente de nuevo."]);
    };
    request.onload = () => {
      setProgress(null);
      let answer: ApiAnswer;
      try {
        answer = JSON.parse(request.responseText) as ApiAnswer;
      } catch {
        setFileErrors(["No pudimos enviar su solicitud. Intente de nuevo en un momento."]);
        return;
      }
      if (answer.ok && answer.number) {
        navigate(`/cotiza/enviada?folio=${encodeURIComponent(answer.number)}`);
        return;
      }
      if (answer.formToken) setToken(answer.formToken);
      if (answer.result) setResult(answer.result);
    };
    sending.current = true;
    setProgress({ loaded: 0, total: [...formData.values()].reduce((sum, value) => sum + (typeof value === "string" ? value.length : value.size), 0) });
    request.send(formData);
  }

  const onFormChange = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (target.name === "quantity") setQuantity(Number(target.value) || undefined);
  };

  const serverFileErrors = (result?.error?.files ?? []) as string[];
  const { key: descriptionKey, ...descriptionProps } = getTextareaProps(fields.description);
  const { key: ndaKey, ...ndaProps } = getInputProps(fields.nda, { type: "checkbox" });

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} onChange={onFormChange} className="space-y-10">
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="formToken" value={token} />
      <input type="hidden" name={FORM_NONCE_FIELD} value={nonce} />

      <section aria-labelledby="cotiza-contacto" className="space-y-5">
        <h2 id="cotiza-contacto" className="text-xl font-semibold text-acero-900">
          Sus datos de contacto
        </h2>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField field={fields.name} label="Nombre" autoComplete="name" />
          <TextField field={fields.company} label="Empresa" autoComplete="organization" optional />
          <TextField field={fields.email} label="Correo electrónico" type="email" autoComplete="email" />
          <TextField field={fields.phone} label="Teléfono o WhatsApp" type="tel" autoComplete="tel" help="10 dígitos; puede empezar con +52." />
          <TextField field={fields.city} label="Ciudad y estado" autoComplete="address-level2" optional />
        </div>
      </section>

      <section aria-labelledby="cotiza-proyecto" className="space-y-5">
        <h2 id="cotiza-proyecto" className="text-xl font-semibold text-acero-900">
          Su proyecto
        </h2>
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            id="cotiza-industria"
            name="industry"
            label="Industria"
            options={INDUSTRY_OPTIONS}
            value={industry}
            onChange={(value) => {
              setIndustry(value);
              const preset = INDUSTRY_CERTIFICATE_PRESETS[value];
              if (preset) setCertificates(preset);
            }}
            errors={fields.industry.errors}
            placeholder="Elija una industria"
            optional
          />
          <SelectField
            id="cotiza-servicio"
            name="service"
            label="Servicio"
            options={SERVICE_OPTIONS}
            value={service}
            onChange={setService}
            errors={fields.service.errors}
            placeholder="Elija un servicio"
            optional
          />
        </div>
        <div>
          <label htmlFor={fields.description.id} className="block text-sm font-semibold text-acero-900">
            Descripción del proyecto
          </label>
          <textarea
            key={descriptionKey}
            {...descriptionProps}
            rows={6}
            aria-describedby={`${fields.description.id}-ayuda ${descriptionProps["aria-describedby"] ?? ""}`.trim()}
            className="mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-base shadow-sm focus:border-forja-600 aria-[invalid=true]:border-red-700"
          />
          <p id={`${fields.description.id}-ayuda`} className="mt-1 text-sm text-acero-600">
            Qué pieza es, para qué sirve, qué problema resuelve y cualquier dato que ayude a cotizar (mínimo 20 caracteres).
          </p>
          <FieldError field={fields.description} />
        </div>
        <div className="grid gap-5 sm:grid-cols-3">
          <TextField field={fields.quantity} label="Cantidad" type="number" help="Piezas por pedido." />
          <TextField field={fields.extraQuantities} label="Otras cantidades" optional help="Para precio por volumen, p. ej. 100, 500, 1000." />
          <TextField field={fields.requiredBy} label="Fecha requerida" type="date" optional />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField field={fields.material} label="Material" optional help="Por ejemplo aluminio 6061-T6, acero 1045, PA12." />
          <TextField field={fields.finish} label="Acabado" optional help="Por ejemplo anodizado negro, pintura electrostática." />
        </div>
        <ChoiceGroup legend="Tolerancias" errors={fields.tolerance.errors}>
          {TOLERANCE_OPTIONS.map((option) => (
            <Choice key={option.value} type="radio" name="tolerance" value={option.value} label={option.label} checked={tolerance === option.value} onChange={() => setTolerance(option.value)} />
          ))}
        </ChoiceGroup>
        <ChoiceGroup legend="¿La pieza lleva roscas?" errors={fields.threads.errors}>
          <Choice type="radio" name="threads" value="si" label="Sí" defaultChecked={initial.threads === "si"} />
          <Choice type="radio" name="threads" value="no" label="No" defaultChecked={initial.threads === "no"} />
        </ChoiceGroup>
        <ChoiceGroup legend="Certificados e inspección" help="Los marcamos según su industria; cámbielos si lo necesita." errors={fields.certificates.errors}>
          {CERTIFICATE_OPTIONS.map((option) => (
            <Choice
              key={option.value}
              type="checkbox"
              name="certificates"
              value={option.value}
              label={option.label}
              checked={certificates.includes(option.value)}
              onChange={(checked) => setCertificates((current) => (checked ? [...current, option.value] : current.filter((value) => value !== option.value)))}
            />
          ))}
        </ChoiceGroup>
      </section>

      <section aria-labelledby="cotiza-archivos" className="space-y-4">
        <h2 id="cotiza-archivos" className="text-xl font-semibold text-acero-900">
          Archivos CAD y planos
        </h2>
        <label
          htmlFor="cotiza-archivos-input"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={`block cursor-pointer rounded-lg border-2 border-dashed p-6 text-center ${dragging ? "border-forja-600 bg-forja-50" : "border-acero-300 bg-acero-50"}`}
        >
          <span className="block font-semibold text-acero-900">{hydrated ? "Arrastre sus archivos aquí o haga clic para elegirlos" : "Elija sus archivos"}</span>
          <span className="mt-1 block text-sm text-acero-700">
            STEP, IGES, STL, 3MF, OBJ, SLDPRT, DXF, DWG, PDF, PNG o JPG. Hasta {UPLOAD_LIMITS.maxFiles} archivos de {formatFileSize(UPLOAD_LIMITS.maxFileBytes)} cada uno y{" "}
            {formatFileSize(UPLOAD_LIMITS.maxTotalBytes)} en total.
          </span>
        </label>
        <input
          ref={fileInput}
          id="cotiza-archivos-input"
          type="file"
          name="files"
          multiple
          accept={ACCEPT}
          onChange={(event) => syncFiles(event.currentTarget.files)}
          aria-describedby="cotiza-archivos-ayuda"
          className="block w-full text-sm text-acero-800 file:mr-4 file:rounded-md file:border-0 file:bg-acero-900 file:px-4 file:py-2 file:font-semibold file:text-white"
        />
        <p id="cotiza-archivos-ayuda" className="text-sm text-acero-600">
          Revisamos cada archivo por su contenido. Si el formulario marca un error, vuelva a elegir sus archivos: el navegador no los conserva.
        </p>
        {files.length ? (
          <ul className="divide-y divide-acero-200 rounded-md border border-acero-200 text-sm">
            {files.map((file) => (
              <li key={`${file.name}-${file.size}`} className="flex justify-between px-3 py-2">
                <span className="truncate">{file.name}</span>
                <span className="text-acero-600">{formatFileSize(file.size)}</span>
              </li>
            ))}
          </ul>
        ) : null}
        {[...fileErrors, ...serverFileErrors].length ? (
          <div role="alert" className="space-y-1 text-sm font-medium text-red-700">
            {[...new Set([...fileErrors, ...serverFileErrors])].map((error) => (
              <p key={error}>{error}</p>
            ))}
          </div>
        ) : null}
        <StlEstimate files={files} service={service || undefined} quantity={quantity} />
        <CadEstimate files={files} service={service || undefined} quantity={quantity} />
      </section>

      <section aria-labelledby="cotiza-confidencialidad" className="space-y-4">
        <h2 id="cotiza-confidencialidad" className="text-xl font-semibold text-acero-900">
          Confidencialidad y privacidad
        </h2>
        <div className="flex items-start gap-3">
          <input key={ndaKey} {...ndaProps} className="size-6 shrink-0 accent-forja-600" aria-describedby="cotiza-nda-texto" />
          <div>
            <label htmlFor={fields.nda.id} className="text-sm font-semibold text-acero-900">
              Requiero acuerdo de confidencialidad
            </label>
            <p id="cotiza-nda-texto" className="mt-1 text-sm text-acero-700">
              {NDA_TEXT}
            </p>
          </div>
        </div>
        <PrivacyConsent field={fields.privacy} privacyHref={privacyHref} />
      </section>

      <HoneypotField />
      {progress ? <UploadProgress loaded={progress.loaded} total={progress.total} /> : null}
      <SubmitButton pendingLabel="Enviando solicitud…" busy={progress !== null} className="btn-primary w-full sm:w-auto">
        Enviar solicitud de cotización
      </SubmitButton>
    </Form>
  );
}

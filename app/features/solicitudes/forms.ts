import { mexicoCityDay } from "~/lib/time";
import { z } from "~/lib/zod";
import { emailField, isMexicanPhone, MEXICAN_PHONE_MESSAGE } from "~/lib/form-fields";

// Shared by the browser (instant validation) and the server (the authority).

/** The label of an option's value; the value itself when it is not among the options; null without a value. */
export const optionLabel = (options: readonly { value: string; label: string }[], value: string | null | undefined) =>
  value ? (options.find((option) => option.value === value)?.label ?? value) : null;

export const INDUSTRY_OPTIONS = [
  { value: "aeroespacial", label: "Aeroespacial" },
  { value: "agricola", label: "Agrícola" },
  { value: "alimentos", label: "Alimentos y bebidas" },
  { value: "automotriz", label: "Automotriz" },
  { value: "construccion", label: "Construcción" },
  { value: "electronica", label: "Electrónica" },
  { value: "energia", label: "Energía" },
  { value: "industrial", label: "Industrial" },
  { value: "medica", label: "Médica" },
  { value: "minera", label: "Minera" },
] as const;

export const SERVICE_OPTIONS = [
  { value: "diseno-industrial", label: "Diseño industrial y de producto" },
  { value: "ingenieria-cad", label: "Ingeniería mecánica y CAD" },
  { value: "prototipado-rapido", label: "Prototipado rápido (impresión 3D)" },
  { value: "maquinado-cnc", label: "Maquinado CNC" },
  { value: "lamina", label: "Corte láser, punzonado y doblez de lámina" },
  { value: "moldes-inyeccion", label: "Moldes e inyección de plástico" },
  { value: "ingenieria-inversa", label: "Ingeniería inversa y escaneo 3D" },
  { value: "ensamble-contrato", label: "Ensamble y manufactura por contrato" },
] as const;

export const CERTIFICATE_OPTIONS = [
  { value: "conformidad", label: "Certificado de conformidad" },
  { value: "rohs", label: "RoHS" },
  { value: "reach", label: "REACH" },
  { value: "dimensional", label: "Reporte dimensional" },
] as const;

/** Certificates an industry usually asks for; preselected, and the person can change them. */
export const INDUSTRY_CERTIFICATE_PRESETS: Partial<Record<string, string[]>> = {
  medica: ["conformidad", "dimensional", "rohs"],
  aeroespacial: ["conformidad", "dimensional"],
  alimentos: ["conformidad"],
  automotriz: ["conformidad", "dimensional"],
};

export const TOLERANCE_OPTIONS = [
  { value: "iso2768m", label: "Estándar (ISO 2768-m)" },
  { value: "estrictas", label: "Más estrictas (indicadas en plano PDF)" },
] as const;

export const SOLICITUD_STATUSES = [
  { value: "nuevo", label: "Nuevo" },
  { value: "en_revision", label: "En revisión" },
  { value: "cotizado", label: "Cotizado" },
  { value: "cerrado", label: "Cerrado" },
  { value: "descartado", label: "Descartado" },
] as const;

export const SOLICITUD_TYPES = [
  { value: "cotizacion", label: "Solicitud de cotización" },
  { value: "contacto", label: "Mensaje de contacto" },
] as const;

export const NDA_VERSION = "NDA-FORJA-2026-01";
export const NDA_TEXT =
  "Forja Diseño y Manufactura se obliga a usar los archivos, planos e información de este proyecto solo para cotizarlo y, en su caso, fabricarlo; a no divulgarlos a terceros sin su autorización por escrito; a limitar su acceso al personal que los necesita; y a devolverlos o destruirlos cuando usted lo solicite. Esta obligación dura cinco años desde la fecha de envío.";

/** Limits of the attachments: enforced while the upload streams in, and shown to people. */
export const UPLOAD_LIMITS = {
  maxFiles: 10,
  maxFileBytes: 50 * 1024 * 1024,
  maxTotalBytes: 200 * 1024 * 1024,
  /** A CRC-32 tells a request's files apart while it is sent; the geometry job takes each sha256 later (0080). */
  checksum: "crc32",
  extensions: [".step", ".stp", ".iges", ".igs", ".stl", ".3mf", ".obj", ".sldprt", ".dxf", ".dwg", ".pdf", ".png", ".jpg", ".jpeg"],
} as const;

const values = <T extends readonly { value: string }[]>(options: T) => options.map((option) => option.value) as [T[number]["value"], ...T[number]["value"][]];

/**
 * A schema built the first time it is asked for. `/cotiza` and `/contact` load this module in the
 * browser with the page, but only a validation needs a schema: building them at load was a few
 * milliseconds of the page's start-up task for nothing (docs/decisions/0069).
 */
function builtOnFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

const mexicanPhone = () =>
  z
    .string({ error: "Escriba un teléfono o WhatsApp." })
    .trim()
    .min(1, "Escriba un teléfono o WhatsApp.")
    .refine(isMexicanPhone, MEXICAN_PHONE_MESSAGE);

const optionalPhone = () =>
  z
    .string()
    .trim()
    .refine((value) => value === "" || isMexicanPhone(value), MEXICAN_PHONE_MESSAGE)
    .optional();

const text = (max: number) => z.string().trim().max(max, `Máximo ${max} caracteres.`).optional();
const privacy = () => z.literal("on", { error: "Para enviar el formulario debe aceptar el aviso de privacidad." });
const formToken = () => z.string({ error: "Vuelva a cargar la página y envíe el formulario de nuevo." }).min(1, "Vuelva a cargar la página y envíe el formulario de nuevo.");
const personName = () => z.string({ error: "Escriba su nombre." }).trim().min(2, "Escriba su nombre completo.").max(120, "Máximo 120 caracteres.");

export const quoteRequestSchema = builtOnFirstUse(() =>
  z.object({
    name: personName(),
    company: text(160),
    email: emailField,
    phone: mexicanPhone(),
    city: text(120),
    industry: z.enum(values(INDUSTRY_OPTIONS), { error: "Elija una industria de la lista." }).optional(),
    service: z.enum(values(SERVICE_OPTIONS), { error: "Elija un servicio de la lista." }).optional(),
    description: z
      .string({ error: "Describa su proyecto." })
      .trim()
      .min(20, "Describa su proyecto con al menos 20 caracteres: qué pieza es, para qué sirve y qué necesita.")
      .max(5000, "Máximo 5,000 caracteres."),
    quantity: z.coerce
      .number({ error: "Escriba la cantidad de piezas." })
      .int("La cantidad debe ser un número entero.")
      .min(1, "La cantidad debe ser al menos 1.")
      .max(10_000_000, "Para más de 10 millones de piezas, escríbanos directamente."),
    extraQuantities: z
      .string()
      .trim()
      .optional()
      .refine((value) => !value || /^\d+(\s*,\s*\d+)*$/.test(value), "Escriba cantidades enteras separadas por comas, por ejemplo 100, 500, 1000.")
      .transform((value) => (value ? [...new Set(value.split(",").map((part) => Number(part.trim())))].filter((n) => n >= 1).slice(0, 10) : [])),
    requiredBy: z
      .string()
      .trim()
      .optional()
      .refine((value) => !value || /^\d{4}-\d{2}-\d{2}$/.test(value), "Escriba la fecha como AAAA-MM-DD.")
      .refine((value) => !value || value >= mexicoCityDay(), "La fecha requerida no puede estar en el pasado."),
    material: text(200),
    finish: text(200),
    tolerance: z.enum(values(TOLERANCE_OPTIONS), { error: "Elija un tipo de tolerancia." }).default("iso2768m"),
    threads: z.enum(["si", "no"], { error: "Indique si la pieza lleva roscas." }).optional(),
    certificates: z.array(z.enum(values(CERTIFICATE_OPTIONS))).default([]),
    nda: z.literal("on").optional(),
    privacy: privacy(),
    formToken: formToken(),
  }),
);

export const contactSchema = builtOnFirstUse(() =>
  z.object({
    name: personName(),
    email: emailField,
    phone: optionalPhone(),
    subject: z.string({ error: "Escriba el asunto." }).trim().min(3, "Escriba el asunto.").max(160, "Máximo 160 caracteres."),
    message: z.string({ error: "Escriba su mensaje." }).trim().min(10, "Escriba un mensaje de al menos 10 caracteres.").max(5000, "Máximo 5,000 caracteres."),
    privacy: privacy(),
    formToken: formToken(),
  }),
);

export type QuoteRequestInput = z.infer<ReturnType<typeof quoteRequestSchema>>;
export type ContactInput = z.infer<ReturnType<typeof contactSchema>>;

/** The forms of the staff detail page, told apart by their submit button's `intent`. */
export const solicitudActionSchema = builtOnFirstUse(() =>
  z.discriminatedUnion(
    "intent",
    [
      z.object({ intent: z.literal("estado"), status: z.enum(values(SOLICITUD_STATUSES), { error: "Elija el nuevo estado." }) }),
      z.object({ intent: z.literal("nota"), note: z.string().default("") }),
      z.object({ intent: z.literal("no_leido") }),
    ],
    { error: "No reconocimos esa acción. Recargue la página e inténtelo de nuevo." },
  ),
);

export type SolicitudAction = z.output<ReturnType<typeof solicitudActionSchema>>;

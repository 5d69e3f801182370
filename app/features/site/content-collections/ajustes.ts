import type { ContentCollection, ContentField } from "~/services/content/collection";
import { getPaymentConfig, isValidClabe } from "~/services/site-config/payment-account";
import { clock } from "~/services/site-config/business-facts";
import { quoteDefaults, siteConfig } from "~/services/site-config/site-config";
import { emailField, isMexicanPhone, MEXICAN_PHONE_MESSAGE } from "~/lib/form-fields";
import { validateRfc } from "~/lib/rfc";
import { z } from "~/lib/zod";
import { mediaSchema, optionalText, requiredText } from "./fields";

// The business facts every page, email and quote PDF shows (issue 16 §1; docs/decisions/0033 made
// site-config their one source, this record takes its place): admins only, exactly one record.

/** Plant days in Spanish as staff write them, with their schema.org names for structured data. */
export const DIAS = {
  lunes: "Monday",
  martes: "Tuesday",
  miercoles: "Wednesday",
  jueves: "Thursday",
  viernes: "Friday",
  sabado: "Saturday",
  domingo: "Sunday",
} as const;

export type Dia = keyof typeof DIAS;

const DIA_NAMES = Object.keys(DIAS) as Dia[];

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const phone = (message: string) => requiredText(message, 40).refine(isMexicanPhone, MEXICAN_PHONE_MESSAGE);

const time = (message: string) => z.string({ error: message }).trim().regex(TIME, message);

export const AjustesSchema = z
  .object({
    nombre: requiredText("Escriba el nombre comercial de la empresa.", 120),
    nombre_corto: requiredText("Escriba el nombre corto, por ejemplo Forja.", 40),
    razon_social: requiredText("Escriba la razón social tal como aparece en su Constancia de Situación Fiscal.", 200),
    rfc: z.string({ error: "Escriba el RFC de la empresa." }).transform((value, ctx) => {
      // Format and date only: the business's RFC is copied from its own Constancia, and the demo one
      // (CONTENT.md) does not carry a valid check digit.
      const check = validateRfc(value, { checkDigit: false });
      if (!check.ok) ctx.addIssue({ code: "custom", message: check.message });
      else if (check.generic) ctx.addIssue({ code: "custom", message: "Escriba el RFC de la empresa; el RFC genérico no sirve para facturar." });
      return check.ok ? check.rfc : value;
    }),
    lema: requiredText("Escriba el lema que acompaña al nombre.", 160),
    descripcion: requiredText("Escriba la descripción de la empresa para buscadores.", 300),
    direccion: requiredText("Escriba la calle y número, o el parque industrial.", 200),
    localidad: requiredText("Escriba la colonia o localidad.", 120),
    estado: requiredText("Escriba el estado.", 80),
    codigo_postal: z.string({ error: "Escriba el código postal." }).trim().regex(/^\d{5}$/, "El código postal tiene 5 dígitos."),
    pais: z.string({ error: "Escriba el código del país." }).trim().regex(/^[A-Z]{2}$/, "Escriba el código del país en 2 mayúsculas, por ejemplo MX."),
    horario: requiredText(`Escriba el horario, por ejemplo ${siteConfig.hours.label}.`, 160),
    horario_en_frase: requiredText(`Escriba el horario como va dentro de una frase, por ejemplo ${siteConfig.hours.inSentence}.`, 160),
    dias: z
      .array(z.enum(DIA_NAMES, { error: `Escriba días de la semana sin acentos: ${DIA_NAMES.join(", ")}.` }), { error: "Escriba los días en que abre la planta." })
      .min(1, "Escriba al menos un día en que abre la planta.")
      .refine((days) => new Set(days).size === days.length, "Cada día va una sola vez."),
    abre: time(`Escriba la hora de apertura con 24 horas, por ejemplo ${siteConfig.hours.opens}.`),
    cierra: time(`Escriba la hora de cierre con 24 horas, por ejemplo ${siteConfig.hours.closes}.`),
    telefono: phone("Escriba el teléfono de la planta."),
    whatsapp: phone("Escriba el número de WhatsApp."),
    correo: emailField,
    banco: requiredText("Escriba el banco de la cuenta para transferencias.", 80),
    clabe: z
      .string({ error: "Escriba la CLABE de 18 dígitos." })
      .transform((value) => value.replace(/\s/g, ""))
      .refine((value) => /^\d{18}$/.test(value), "La CLABE tiene 18 dígitos.")
      .refine(
        (value) => !/^\d{18}$/.test(value) || isValidClabe(value),
        "El dígito de control de la CLABE no coincide: cópiela completa, tal como aparece en su estado de cuenta.",
      ),
    beneficiario: requiredText("Escriba el titular de la cuenta como lo muestra el banco.", 200),
    anticipo_porcentaje: z
      .number({ error: "Escriba el anticipo como porcentaje, de 0 a 100." })
      .int("Escriba el anticipo como número entero.")
      .min(0, "El anticipo va de 0 a 100 %.")
      .max(100, "El anticipo va de 0 a 100 %."),
    pago_al_confirmar: requiredText("Escriba qué se paga completo al confirmar el pedido.", 600),
    pago_series: requiredText("Escriba cómo se pagan las series de producción.", 600),
    credito: optionalText(600),
    condiciones_cotizacion: requiredText("Escriba las condiciones de una cotización nueva.", 5000),
    vigencia_dias: z
      .number({ error: "Escriba la vigencia en días." })
      .int("Escriba la vigencia como número entero de días.")
      .min(1, "La vigencia mínima es 1 día.")
      .max(180, "La vigencia máxima es 180 días."),
    logo: mediaSchema,
  })
  .superRefine((data, ctx) => {
    if (typeof data.abre === "string" && typeof data.cierra === "string" && TIME.test(data.abre) && TIME.test(data.cierra)) {
      if (data.cierra <= data.abre) ctx.addIssue({ code: "custom", path: ["cierra"], message: "La hora de cierre debe ser posterior a la de apertura." });
      const hours = `${clock(data.abre)} a ${clock(data.cierra)}`;
      for (const field of ["horario", "horario_en_frase"] as const) {
        if (typeof data[field] === "string" && !data[field].includes(hours)) {
          ctx.addIssue({ code: "custom", path: [field], message: `El horario debe decir «${hours}», como las horas de apertura y cierre.` });
        }
      }
    }
    const deposit = data.anticipo_porcentaje;
    // Checked only when both fields are valid on their own (zod runs this even when one is not).
    if (Number.isInteger(deposit) && deposit > 0 && deposit <= 100 && typeof data.pago_series === "string" && !data.pago_series.includes(`${deposit} %`)) {
      ctx.addIssue({ code: "custom", path: ["pago_series"], message: `El texto de series debe mencionar el anticipo del ${deposit} %.` });
    }
  });

export type Ajustes = z.output<typeof AjustesSchema>;

const FIELDS: readonly ContentField[] = [
  { name: "nombre", label: "Nombre comercial", kind: "text", required: true, help: "Como aparece en el encabezado, los correos y la cotización en PDF." },
  { name: "nombre_corto", label: "Nombre corto", kind: "text", required: true, help: "Para espacios reducidos: el menú en teléfonos y el asunto de los correos." },
  { name: "razon_social", label: "Razón social", kind: "text", required: true, help: "Tal como aparece en su Constancia de Situación Fiscal; va en las cotizaciones y los avisos legales." },
  { name: "rfc", label: "RFC", kind: "text", required: true, help: "12 caracteres para persona moral, tal como aparece en su Constancia de Situación Fiscal." },
  { name: "lema", label: "Lema", kind: "text", required: true, help: "Una línea que acompaña al nombre en el pie de página." },
  { name: "descripcion", label: "Descripción para buscadores", kind: "textarea", required: true, seo: "description", help: "Lo que Google muestra bajo el nombre en la página de inicio." },
  { name: "direccion", label: "Dirección", kind: "text", required: true, help: "Calle y número, o el parque industrial." },
  { name: "localidad", label: "Colonia o localidad", kind: "text", required: true },
  { name: "estado", label: "Estado", kind: "text", required: true },
  { name: "codigo_postal", label: "Código postal", kind: "text", required: true },
  { name: "pais", label: "País (código de 2 letras)", kind: "text", required: true, help: "MX para México; se usa en los datos para buscadores." },
  { name: "horario", label: "Horario", kind: "text", required: true, help: `Como se lee solo: «${siteConfig.hours.label}». Aparece en el pie de página, en Contacto y donde un texto escriba {horario}.` },
  { name: "horario_en_frase", label: "Horario dentro de una frase", kind: "text", required: true, help: `Como va a media frase: «Recoja su pedido ${siteConfig.hours.inSentence}». Aparece donde un texto escriba {horario_en_frase}, como Preguntas frecuentes y Términos y condiciones.` },
  { name: "dias", label: "Días de apertura", kind: "list", required: true, help: "Un día por renglón, sin acentos: lunes, martes, miercoles, jueves, viernes, sabado, domingo." },
  { name: "abre", label: "Hora de apertura", kind: "text", required: true, help: `Con 24 horas, por ejemplo ${siteConfig.hours.opens}.` },
  { name: "cierra", label: "Hora de cierre", kind: "text", required: true, help: `Con 24 horas, por ejemplo ${siteConfig.hours.closes}.` },
  { name: "telefono", label: "Teléfono", kind: "phone", required: true, help: "10 dígitos; puede empezar con +52. Aparece en el encabezado, el pie de página, Contacto y los correos." },
  { name: "whatsapp", label: "WhatsApp", kind: "phone", required: true, help: "El número al que abre el botón de WhatsApp." },
  { name: "correo", label: "Correo de ventas", kind: "email", required: true, help: "Recibe las dudas de los clientes y aparece en todo el sitio, los correos y los avisos legales." },
  { name: "banco", label: "Banco", kind: "text", required: true, help: "La cuenta para transferencias SPEI que ven los clientes al aceptar una cotización y en cada pedido." },
  { name: "clabe", label: "CLABE", kind: "text", required: true, help: "18 dígitos; se revisa el dígito de control para evitar pagos a una cuenta equivocada." },
  { name: "beneficiario", label: "Beneficiario", kind: "text", required: true, help: "El titular de la cuenta, como lo muestra el banco al transferir." },
  { name: "anticipo_porcentaje", label: "Anticipo para series (%)", kind: "number", required: true, help: "El porcentaje que se paga al iniciar series, moldes y ensamble por contrato." },
  { name: "pago_al_confirmar", label: "Pago al confirmar", kind: "textarea", required: true, help: "Qué se paga completo al confirmar el pedido; lo citan las preguntas frecuentes, los términos y las cotizaciones." },
  { name: "pago_series", label: "Pago de series", kind: "textarea", required: true, help: "Cómo se pagan las series; debe mencionar el porcentaje del anticipo." },
  { name: "credito", label: "Crédito", kind: "textarea", help: "A quién se ofrece crédito. Déjelo vacío si no lo ofrece." },
  { name: "condiciones_cotizacion", label: "Condiciones de una cotización nueva", kind: "textarea", required: true, help: "El texto con que empieza cada cotización; el personal puede ajustarlo en cada una." },
  { name: "vigencia_dias", label: "Vigencia de una cotización (días)", kind: "number", required: true, help: "Días naturales, de 1 a 180, a partir de que se envía la cotización." },
  { name: "logo", label: "Logotipo", kind: "media", help: "Una imagen de la biblioteca; si no elige ninguna, se muestra el nombre." },
];

export const ajustes: ContentCollection<Ajustes> = {
  name: "ajustes",
  label: "Ajustes",
  singular: "ajustes",
  access: "admin",
  singleton: true,
  fields: FIELDS,
  schema: AjustesSchema,
  seed: () => {
    const payment = getPaymentConfig();
    const days = siteConfig.hours.days.map((day) => DIA_NAMES.find((name) => DIAS[name] === day)!);
    return [
      {
        nombre: siteConfig.name,
        nombre_corto: siteConfig.shortName,
        razon_social: siteConfig.legalName,
        rfc: siteConfig.rfc,
        lema: siteConfig.tagline,
        descripcion: siteConfig.description,
        direccion: siteConfig.address.street,
        localidad: siteConfig.address.locality,
        estado: siteConfig.address.region,
        codigo_postal: siteConfig.address.postalCode,
        pais: siteConfig.address.country,
        horario: siteConfig.hours.label,
        horario_en_frase: siteConfig.hours.inSentence,
        dias: days,
        abre: siteConfig.hours.opens,
        cierra: siteConfig.hours.closes,
        telefono: siteConfig.phone.display,
        whatsapp: siteConfig.whatsapp.display,
        correo: siteConfig.email,
        banco: payment.bank,
        clabe: payment.clabe,
        beneficiario: payment.beneficiary,
        anticipo_porcentaje: siteConfig.paymentTerms.depositPercent,
        pago_al_confirmar: siteConfig.paymentTerms.onConfirmation,
        pago_series: siteConfig.paymentTerms.series,
        credito: siteConfig.paymentTerms.credit,
        condiciones_cotizacion: quoteDefaults.terms,
        vigencia_dias: quoteDefaults.validityDays,
        logo: null,
      },
    ];
  },
  isPublic: () => true,
  // The facts are in every page's header and footer; Contacto shows them all (where a preview opens).
  paths: () => ["/contact", "/"],
};

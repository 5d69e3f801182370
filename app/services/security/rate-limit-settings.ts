import { z } from "~/lib/zod";

// The `rateLimits` section of the technical settings, in PocketBase's shape (issue 17 §3,
// docs/decisions/0065): `{enabled, rules: [{label, maxRequests, duration, audience}]}`. Each label
// names one of Forja's per-connection limits (RATE_LIMITS in rate-limit.server.ts, which takes its
// numbers from here); `duration` is in seconds, as in PocketBase. Browser-safe: /admin/sistema's
// form validates with it too.

export const RATE_LIMIT_LABELS = ["signIn", "register", "passwordReset", "adminSignIn", "publicForm", "publicFormAttempts", "oneTimeCode"] as const;
export type RateLimitLabel = (typeof RATE_LIMIT_LABELS)[number];

/** What each limit guards, for staff (es-MX). */
export const RATE_LIMIT_DESCRIPTIONS: Record<RateLimitLabel, string> = {
  signIn: "Inicios de sesión de clientes",
  register: "Registros de cuentas nuevas",
  passwordReset: "Correos para recuperar la contraseña o confirmar la cuenta",
  adminSignIn: "Inicios de sesión del personal",
  publicForm: "Solicitudes enviadas desde los formularios públicos",
  publicFormAttempts: "Intentos de envío de los formularios públicos",
  oneTimeCode: "Códigos de acceso enviados por correo",
};

export interface RateLimitSetting {
  label: RateLimitLabel;
  /** Requests allowed per connection in `duration`. */
  maxRequests: number;
  /** The window, in seconds. */
  duration: number;
  /** PocketBase's audience; Forja's limits count every connection alike, so always "". */
  audience: "";
}

export const DEFAULT_RATE_LIMIT_RULES: readonly RateLimitSetting[] = [
  { label: "signIn", maxRequests: 10, duration: 10 * 60, audience: "" },
  { label: "register", maxRequests: 5, duration: 60 * 60, audience: "" },
  { label: "passwordReset", maxRequests: 5, duration: 60 * 60, audience: "" },
  { label: "adminSignIn", maxRequests: 10, duration: 10 * 60, audience: "" },
  { label: "publicForm", maxRequests: 5, duration: 10 * 60, audience: "" },
  { label: "publicFormAttempts", maxRequests: 30, duration: 10 * 60, audience: "" },
  { label: "oneTimeCode", maxRequests: 5, duration: 10 * 60, audience: "" },
];

/** The default rule of `label` (every label has one). */
export function defaultRateLimit(label: RateLimitLabel): RateLimitSetting {
  return DEFAULT_RATE_LIMIT_RULES.find((rule) => rule.label === label)!;
}

const MAX_DURATION_SECONDS = 7 * 24 * 60 * 60;

export const RateLimitRuleSchema = z.object({
  label: z.enum(RATE_LIMIT_LABELS, { error: `Use una de estas etiquetas: ${RATE_LIMIT_LABELS.join(", ")}.` }),
  maxRequests: z
    .number({ error: "Escriba cuántas solicitudes se permiten, como número." })
    .int("Escriba un número entero de solicitudes.")
    .min(1, "Permita al menos 1 solicitud.")
    .max(100_000, "Permita como máximo 100,000 solicitudes."),
  duration: z
    .number({ error: "Escriba la duración del periodo en segundos." })
    .int("Escriba un número entero de segundos.")
    .min(1, "El periodo dura al menos 1 segundo.")
    .max(MAX_DURATION_SECONDS, "El periodo dura como máximo 7 días (604,800 segundos)."),
  audience: z.literal("", { error: "Forja aplica cada límite a todas las conexiones por igual: deje «audience» vacío." }).default(""),
});

/**
 * The section: the rules given, completed with the default of every label left out (so the answer
 * always lists every limit in effect), each label at most once.
 */
export const RateLimitsSettingsSchema = z
  .object({
    enabled: z.boolean({ error: "Indique sí o no." }),
    rules: z
      .array(RateLimitRuleSchema, { error: "Envíe las reglas como una lista." })
      .refine((rules) => new Set(rules.map((rule) => rule.label)).size === rules.length, "Cada límite aparece una sola vez en la lista."),
  })
  .transform(({ enabled, rules }) => ({
    enabled,
    rules: RATE_LIMIT_LABELS.map((label): RateLimitSetting => rules.find((rule) => rule.label === label) ?? defaultRateLimit(label)),
  }));

export type RateLimitsSettings = z.output<typeof RateLimitsSettingsSchema>;

export const DEFAULT_RATE_LIMITS: RateLimitsSettings = { enabled: true, rules: [...DEFAULT_RATE_LIMIT_RULES] };

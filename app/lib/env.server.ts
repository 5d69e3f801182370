import path from "node:path";
import { z } from "~/lib/zod";

const LogLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.preprocess((value) => (value === "" ? undefined : value), z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "debe empezar con postgres:// o postgresql://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PUBLIC_URL: z.url({ protocol: /^https?$/, message: "debe ser una URL completa con http o https, por ejemplo https://forja.example" }).optional(),
  LOG_LEVEL: LogLevel.optional(),
  /** Days the request and error log (/api/logs) keeps its entries; 0 writes none. */
  LOGS_MAX_DAYS: z.preprocess((value) => (value === "" ? undefined : value), z.coerce.number().int().min(0).max(3650).default(7)),
  /** Signs session cookies and tokens. Without it a random one is kept in DATA_DIR/auth-secret. */
  AUTH_SECRET: z.string().min(32, "debe tener al menos 32 caracteres").optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  MICROSOFT_CLIENT_ID: z.string().min(1).optional(),
  MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
  MICROSOFT_TENANT_ID: z.string().min(1).default("common"),
  /** Any OpenID Connect provider: issuer URL (discovery document at /.well-known/openid-configuration). */
  OIDC_ISSUER: z.url({ message: "debe ser la URL del emisor OpenID Connect" }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).default("OpenID Connect"),
  // Which proxies may set X-Forwarded-For: "loopback" (default), a hop count, or a list of addresses.
  TRUST_PROXY: z
    .string()
    .default("loopback")
    .transform((value): boolean | number | string => (value === "true" ? true : value === "false" ? false : /^\d+$/.test(value) ? Number(value) : value)),
});

export type Env = z.infer<typeof EnvSchema> & {
  dataDir: string;
  publicUrl: string;
  /** Cookies get the Secure attribute when the public origin is https. */
  secureCookies: boolean;
  logLevel: z.infer<typeof LogLevel>;
};

/** Parses and validates the environment; throws one readable error naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Configuración inválida en variables de entorno:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return {
    ...env,
    dataDir: path.resolve(env.DATA_DIR),
    publicUrl,
    secureCookies: publicUrl.startsWith("https:"),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "warn" : "info"),
  };
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

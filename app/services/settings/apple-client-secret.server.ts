import { createPrivateKey, sign, type KeyObject } from "node:crypto";
import { invalid, ok, type FieldErrors, type Result } from "~/lib/result";

// Sign in with Apple's client secret: a JWT signed with ES256 by the developer's private key
// (Apple's "Creating a client secret"), valid at most six months; PocketBase signs it from its
// settings screen, and so does Forja (issue 17 §3).

/** Apple's limit: 15777000 seconds (six months). */
export const APPLE_SECRET_MAX_SECONDS = 15_777_000;

const base64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");

export function appleClientSecret(body: Record<string, unknown>, now = new Date()): Result<string> {
  const errors: FieldErrors = {};
  const text = (name: string, message: string): string => {
    const value = typeof body[name] === "string" ? (body[name] as string).trim() : "";
    if (!value) errors[name] = [message];
    return value;
  };
  const clientId = text("clientId", "Escriba el identificador del servicio (Services ID) de Apple.");
  const teamId = text("teamId", "Escriba el identificador del equipo (Team ID) de Apple.");
  const keyId = text("keyId", "Escriba el identificador de la llave (Key ID) de Apple.");
  const privateKey = text("privateKey", "Pegue la llave privada .p8 que descargó de Apple.");
  const duration = Number(body.duration);
  if (!Number.isInteger(duration) || duration < 1 || duration > APPLE_SECRET_MAX_SECONDS) {
    errors.duration = [`Escriba la vigencia en segundos, de 1 a ${APPLE_SECRET_MAX_SECONDS.toLocaleString("es-MX")} (seis meses).`];
  }
  let key: KeyObject | undefined;
  if (privateKey) {
    try {
      key = createPrivateKey(privateKey);
      if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") key = undefined;
    } catch {
      key = undefined;
    }
    if (!key) errors.privateKey = ["La llave no es una llave privada de curva P-256 en formato PEM (el archivo .p8 de Apple)."];
  }
  if (Object.keys(errors).length || !key) return invalid({ fieldErrors: errors });
  const issuedAt = Math.floor(now.getTime() / 1000);
  const header = base64url(JSON.stringify({ alg: "ES256", kid: keyId, typ: "JWT" }));
  const claims = base64url(JSON.stringify({ iss: teamId, iat: issuedAt, exp: issuedAt + duration, aud: "https://appleid.apple.com", sub: clientId }));
  const signature = sign("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" });
  return ok(`${header}.${claims}.${base64url(signature)}`);
}

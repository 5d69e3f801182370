import type { IncomingMessage } from "node:http";
import { Events, OAuth2Server, type MutableRedirectUri, type MutableResponse, type MutableToken } from "oauth2-mock-server";

// A real OpenID Connect provider on loopback for tests (ARCHITECTURE §7), from `oauth2-mock-server`:
// discovery, JWKS, authorization code with PKCE, signed id_tokens, userinfo. It signs in whoever
// asks, without a login screen.
//
// Who signs in is chosen by the browser: a cookie named OIDC_IDENTITY_COOKIE (path /authorize, so
// the app under test never receives it) holds the identity as base64url JSON. The authorization
// code remembers that identity, and the id_token, access token and userinfo all carry it.

export const OIDC_IDENTITY_COOKIE = "e2e_oidc_identity";

export interface OidcIdentity {
  /** The provider's user id; defaults to one derived from the email. */
  sub?: string;
  email: string;
  name: string;
  emailVerified?: boolean;
}

export const DEFAULT_OIDC_IDENTITY: OidcIdentity = { email: "proveedor@oidc.example", name: "Persona Proveedor" };

export interface OidcTestServer {
  /** http://127.0.0.1:<port> — what OIDC_ISSUER should be set to. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  stop(): Promise<void>;
}

export function encodeOidcIdentity(identity: OidcIdentity): string {
  return Buffer.from(JSON.stringify(identity), "utf8").toString("base64url");
}

function decodeIdentity(value: string | undefined): OidcIdentity | undefined {
  if (!value) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Partial<OidcIdentity>;
    if (typeof parsed.email !== "string" || typeof parsed.name !== "string") return undefined;
    return { sub: parsed.sub, email: parsed.email, name: parsed.name, emailVerified: parsed.emailVerified };
  } catch {
    return undefined;
  }
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(/;\s*/)) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator) === name) return part.slice(separator + 1);
  }
  return undefined;
}

function subjectOf(identity: OidcIdentity): string {
  return identity.sub ?? `oidc-${Buffer.from(identity.email.toLowerCase()).toString("base64url")}`;
}

function claimsOf(identity: OidcIdentity) {
  return { sub: subjectOf(identity), email: identity.email, email_verified: identity.emailVerified ?? true, name: identity.name };
}

/** The `sub` of a bearer JWT, read without verification (we issued it ourselves). */
function bearerSubject(req: IncomingMessage): string | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  const payload = token?.split(".")[1];
  if (!payload) return undefined;
  try {
    return (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sub?: string }).sub;
  } catch {
    return undefined;
  }
}

export async function startOidcTestServer(options: { clientId?: string; clientSecret?: string } = {}): Promise<OidcTestServer> {
  const clientId = options.clientId ?? "forja-e2e";
  const clientSecret = options.clientSecret ?? "forja-e2e-secreto";
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");

  // Bounded: one entry per sign-in of the run.
  const identityByCode = new Map<string, OidcIdentity>();
  const identityBySubject = new Map<string, OidcIdentity>();
  const remember = <K, V>(map: Map<K, V>, key: K, value: V) => {
    map.set(key, value);
    if (map.size > 5_000) map.delete(map.keys().next().value as K);
  };

  server.service.on(Events.BeforeAuthorizeRedirect, (redirect: MutableRedirectUri, req: IncomingMessage) => {
    const code = redirect.url.searchParams.get("code");
    const identity = decodeIdentity(cookieValue(req, OIDC_IDENTITY_COOKIE)) ?? DEFAULT_OIDC_IDENTITY;
    if (code) remember(identityByCode, code, identity);
  });

  // Runs for the access token and the id_token of each token request.
  server.service.on(Events.BeforeTokenSigning, (token: MutableToken, req: IncomingMessage & { body?: Record<string, unknown> }) => {
    const code = typeof req.body?.code === "string" ? req.body.code : undefined;
    const identity = (code && identityByCode.get(code)) || DEFAULT_OIDC_IDENTITY;
    const claims = claimsOf(identity);
    remember(identityBySubject, claims.sub, identity);
    Object.assign(token.payload, claims);
  });

  server.service.on(Events.BeforeUserinfo, (response: MutableResponse, req: IncomingMessage) => {
    const subject = bearerSubject(req);
    const identity = (subject && identityBySubject.get(subject)) || DEFAULT_OIDC_IDENTITY;
    response.body = claimsOf(identity);
  });

  await server.start(0, "127.0.0.1");
  // The library names loopback "localhost"; the browser and the app should both use the IP.
  server.issuer.url = `http://127.0.0.1:${server.address().port}`;
  const issuer = server.issuer.url;

  return {
    issuer,
    clientId,
    clientSecret,
    stop: async () => {
      if (server.listening) await server.stop();
    },
  };
}

import { getEnv } from "~/lib/env.server";

export interface ProviderInfo {
  id: string;
  name: string;
  kind: "social" | "oidc";
}

export const OIDC_PROVIDER_ID = "oidc";

/** The sign-in providers whose keys are configured, in the order the screens show them. */
export function listProviders(): ProviderInfo[] {
  const env = getEnv();
  const providers: ProviderInfo[] = [];
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) providers.push({ id: "google", name: "Google", kind: "social" });
  if (env.MICROSOFT_CLIENT_ID && env.MICROSOFT_CLIENT_SECRET) providers.push({ id: "microsoft", name: "Microsoft", kind: "social" });
  if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID) providers.push({ id: OIDC_PROVIDER_ID, name: env.OIDC_NAME, kind: "oidc" });
  return providers;
}

export function getProvider(id: string): ProviderInfo | undefined {
  return listProviders().find((provider) => provider.id === id);
}

/** Our callback path for a provider (the seed's `/auth/{provider}/callback`). */
export function providerCallbackUrl(id: string): string {
  return `${getEnv().publicUrl}/auth/${id}/callback`;
}

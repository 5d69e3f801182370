import PocketBase, { ClientResponseError } from "pocketbase";
import { expect } from "vitest";

// The official `pocketbase` SDK as the contract tests drive it: a client written for PocketBase,
// unchanged, with every request bounded in time (a hung server fails the test instead of stalling it).

export const SDK_REQUEST_TIMEOUT_MS = 15_000;

/** A new SDK client for `url`; `headers` are added to every request (e.g. X-Forwarded-For). */
export function sdkClient(url: string, headers: () => Record<string, string> = () => ({})): PocketBase {
  const sdk = new PocketBase(url);
  sdk.autoCancellation(false);
  sdk.beforeSend = (target, options) => ({
    url: target,
    options: { ...options, headers: { ...(options.headers as Record<string, string>), ...headers() }, signal: AbortSignal.timeout(SDK_REQUEST_TIMEOUT_MS) },
  });
  return sdk;
}

/**
 * A maker of SDK clients each of its own address (the server trusts X-Forwarded-For from loopback),
 * so per-IP limits do not mix between tests: `network` is the first three parts ("198.51.100").
 */
export function ownAddressClients(url: () => string, network: string): () => PocketBase {
  let counter = 0;
  return () => {
    const forwarded = { "x-forwarded-for": `${network}.${(counter += 1)}` };
    return sdkClient(url(), () => forwarded);
  };
}

/** The SDK's error for a call that must fail (the test fails if it succeeds or fails otherwise). */
export async function sdkFailure(promise: Promise<unknown>): Promise<ClientResponseError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ClientResponseError);
  const failure = error as ClientResponseError;
  // No answer at all (a timeout, a dropped connection) is not a refusal: say what happened instead of comparing `{}`.
  if (failure.status === 0) throw new Error(`no answer from ${failure.url || "the server"} (${failure.isAbort ? "aborted or timed out" : "network failure"})`, { cause: failure.originalError });
  return failure;
}

/** The four callers of the authorization matrices: a guest, customers A and B, and staff, each signed in with the SDK. */
export async function matrixClients(
  url: string,
  accounts: { a: { email: string }; b: { email: string }; customerPassword: string; staff: { email: string; password: string } },
): Promise<Record<"guest" | "a" | "b" | "staff", PocketBase>> {
  const clients = { guest: sdkClient(url), a: sdkClient(url), b: sdkClient(url), staff: sdkClient(url) };
  await clients.a.collection("users").authWithPassword(accounts.a.email, accounts.customerPassword);
  await clients.b.collection("users").authWithPassword(accounts.b.email, accounts.customerPassword);
  await clients.staff.collection("_superusers").authWithPassword(accounts.staff.email, accounts.staff.password);
  return clients;
}

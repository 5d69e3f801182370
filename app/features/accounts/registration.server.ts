import type { RequestMeta } from "~/lib/request-meta";
import { ok, type Result } from "~/lib/result";
import { forwardHeaders, toSessionUser } from "./accounts.server";
import { authFailure } from "./auth-errors.server";
import { getAuth } from "./auth.server";
import type { SignedIn } from "./sign-in.server";

// A customer creates an account and is signed in at once; better-auth queues the confirmation email.
// Part of the auth adapter (RequestMeta in, session Set-Cookie headers out), like sign-in.

export interface Registration {
  name: string;
  email: string;
  password: string;
  company?: string;
  phone?: string;
}

export async function registerCustomer(meta: RequestMeta, input: Registration): Promise<Result<SignedIn>> {
  try {
    // Only these fields go to better-auth: nobody picks a role through the web.
    const { headers, response } = await getAuth().api.signUpEmail({
      body: { name: input.name, email: input.email, password: input.password, company: input.company, phone: input.phone },
      headers: forwardHeaders(meta),
      returnHeaders: true,
    });
    return ok({ user: toSessionUser(response.user as unknown as Record<string, unknown>), headers });
  } catch (error) {
    return authFailure(error);
  }
}

import type { Route } from "./+types/settings-test-email";
import { TEST_EMAIL_TEMPLATES, sendTestEmail } from "~/features/accounts/index.server";
import { invalid } from "~/lib/result";
import { z } from "~/lib/zod";
import { pocketBaseError } from "~/services/records/auth-records.server";
import { errorResponse, noContent } from "./record-auth.server";
import { superuserBody, validationBody } from "./settings-answers.server";

// POST /api/settings/test/email {email, template, collection} (PocketBase's apis/settings.go): sends
// one of the account templates to `email` right now, through the mail server the settings and the
// environment give, and answers 204, or 400 with what went wrong (docs/decisions/0057).

const TEMPLATE_MESSAGE = `Elija una plantilla que Forja envía: ${TEST_EMAIL_TEMPLATES.join(", ")}.`;

const TestEmailSchema = z.object({
  email: z.email({ error: "Escriba un correo válido para recibir la prueba." }),
  template: z.string({ error: TEMPLATE_MESSAGE }).refine((value) => TEST_EMAIL_TEMPLATES.includes(value), TEMPLATE_MESSAGE),
  collection: z.string().optional(),
});

export async function action({ request, context }: Route.ActionArgs) {
  const read = await superuserBody(request, context);
  if (!read.ok) return read.response;
  const parsed = TestEmailSchema.safeParse(read.body);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0] ?? "email")] ??= []).push(issue.message);
    return errorResponse(validationBody(invalid({ fieldErrors })));
  }
  const sent = await sendTestEmail(parsed.data.email, parsed.data.template);
  if (!sent.ok && sent.reason === "template") return errorResponse(validationBody(invalid({ fieldErrors: { template: [TEMPLATE_MESSAGE] } })));
  if (!sent.ok) return errorResponse(pocketBaseError(400, sent.message));
  return noContent();
}

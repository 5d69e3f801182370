import type { Route } from "./+types/settings-test-email";
import { TEST_EMAIL_TEMPLATES, testEmail } from "~/features/accounts/index.server";
import { logger } from "~/lib/logger.server";
import { readFieldsBody } from "~/lib/request-body";
import { invalid } from "~/lib/result";
import { z } from "~/lib/zod";
import { sendNow } from "~/services/mail/transport.server";
import { AUTH_API_MESSAGES, pocketBaseError } from "~/services/records/auth-records.server";
import { errorResponse, noContent } from "./record-auth.server";
import { validationBody } from "./settings-answers.server";
import { superuserOnly } from "./superusers-only.server";

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
  const access = await superuserOnly(request, context);
  if (!access.ok) return access.response;
  const body = await readFieldsBody(request);
  if (body === "too-large") return errorResponse(pocketBaseError(413, AUTH_API_MESSAGES.tooLarge));
  if (body === null) return errorResponse(pocketBaseError(400, AUTH_API_MESSAGES.loadBody));
  const parsed = TestEmailSchema.safeParse(body);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0] ?? "email")] ??= []).push(issue.message);
    return errorResponse(validationBody(invalid({ fieldErrors })));
  }
  const email = await testEmail(parsed.data.template);
  if (!email) return errorResponse(validationBody(invalid({ fieldErrors: { template: [TEMPLATE_MESSAGE] } })));
  try {
    await sendNow({ to: parsed.data.email, ...email });
  } catch (error) {
    logger.warn({ err: error }, "settings: the test email could not be sent");
    const reason = error instanceof Error ? error.message : String(error);
    return errorResponse(pocketBaseError(400, `No se pudo enviar el correo de prueba: ${reason}`));
  }
  return noContent();
}

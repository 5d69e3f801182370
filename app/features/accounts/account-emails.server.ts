import { enqueueMail } from "~/services/mail/outbox.server";
import { sendNow } from "~/services/mail/transport.server";
import { logger } from "~/lib/logger.server";
import { renderEmail } from "~/services/mail/templates.server";
import { getEnv } from "~/lib/env.server";
import { formatCount } from "~/lib/format";
import { getSiteFacts } from "~/features/site/index.server";

export interface ComposedEmail {
  subject: string;
  html: string;
  text: string;
}

/** The message that asks to confirm an email address (sent by registration; previewed by the settings' test email). */
export async function confirmationEmail(to: { name: string }, token: string): Promise<ComposedEmail> {
  const url = `${getEnv().publicUrl}/cuenta/confirmar?token=${encodeURIComponent(token)}`;
  const { html, text } = renderEmail({
    preheader: "Confirme su correo para activar su cuenta de Forja.",
    heading: `Hola, ${to.name}`,
    paragraphs: [
      "Gracias por crear su cuenta en Forja. Confirme que este correo es suyo para ver sus cotizaciones y pedidos.",
      "El enlace vence en 24 horas. Si usted no creó esta cuenta, no abra el enlace: quien la creó podría ver las solicitudes y cotizaciones de este correo. Ignore este mensaje; para usar el sitio, entre con «Recibir un código por correo».",
    ],
    action: { label: "Confirmar mi correo", url },
  }, await getSiteFacts());
  return { subject: "Confirme su correo en Forja", html, text };
}

export async function sendConfirmationEmail(to: { name: string; email: string }, token: string): Promise<void> {
  await enqueueMail({ to: to.email, ...(await confirmationEmail(to, token)) });
}

/** The message with the link to choose a new password. */
export async function passwordResetEmail(to: { name: string }, token: string): Promise<ComposedEmail> {
  const url = `${getEnv().publicUrl}/recuperar/nueva?token=${encodeURIComponent(token)}`;
  const { html, text } = renderEmail({
    preheader: "Enlace para elegir una contraseña nueva.",
    heading: `Hola, ${to.name}`,
    paragraphs: [
      "Recibimos una solicitud para restablecer la contraseña de su cuenta de Forja.",
      "El enlace sirve una sola vez y vence en una hora. Si usted no lo pidió, ignore este mensaje: su contraseña no cambia.",
    ],
    action: { label: "Elegir contraseña nueva", url },
  }, await getSiteFacts());
  return { subject: "Restablezca su contraseña de Forja", html, text };
}

export async function sendPasswordResetEmail(to: { name: string; email: string }, token: string): Promise<void> {
  await enqueueMail({ to: to.email, ...(await passwordResetEmail(to, token)) });
}

/** The message to the NEW address asking to confirm an email change (docs/decisions/0062); same signature as the test templates'. */
export async function emailChangeEmail(to: { name: string }, token: string): Promise<ComposedEmail> {
  const url = `${getEnv().publicUrl}/cuenta/confirmar-correo?token=${encodeURIComponent(token)}`;
  const { html, text } = renderEmail({
    preheader: "Confirme el correo nuevo de su cuenta de Forja.",
    heading: `Hola, ${to.name}`,
    paragraphs: [
      "Recibimos una solicitud para que su cuenta de Forja use esta dirección de correo.",
      "Para confirmar el cambio, abra el enlace y escriba la contraseña de su cuenta. El enlace sirve una sola vez y vence en 30 minutos.",
    ],
    action: { label: "Confirmar mi correo nuevo", url },
    footerNote: "Si usted no lo pidió, ignore este mensaje: el correo de la cuenta no cambia.",
  }, await getSiteFacts());
  return { subject: "Confirme su correo nuevo en Forja", html, text };
}

export async function sendEmailChangeEmail(to: { name: string; email: string }, token: string): Promise<void> {
  await enqueueMail({ to: to.email, ...(await emailChangeEmail(to, token)) });
}

/** To the OLD address once the change is confirmed: who changed it can be told apart only by its owner. */
export async function sendEmailChangedNotice(to: { name: string; email: string }, newEmail: string): Promise<void> {
  const facts = await getSiteFacts();
  const contact = [facts.email ? ` a ${facts.email}` : "", facts.phone.display ? ` o al ${facts.phone.display}` : ""].join("");
  const { html, text } = renderEmail({
    preheader: "El correo de su cuenta de Forja cambió.",
    heading: `Hola, ${to.name}`,
    paragraphs: [
      `El correo de su cuenta de Forja ahora es ${newEmail}. Desde este momento inicie sesión con esa dirección; esta ya no sirve para entrar.`,
      "Por seguridad cerramos todas las sesiones abiertas de la cuenta.",
      `Si usted no hizo este cambio, comuníquese con nosotros de inmediato${contact} para recuperar su cuenta.`,
    ],
    footerNote: "Si usted hizo el cambio, no necesita hacer nada más.",
  }, facts);
  await enqueueMail({ to: to.email, subject: "El correo de su cuenta de Forja cambió", html, text });
}

/** After repeated failed sign-ins locked the account (docs/decisions/0036); once per lock window. */
export async function sendAccountLockedEmail(to: { name: string; email: string }, lockMinutes: number): Promise<void> {
  const url = `${getEnv().publicUrl}/recuperar`;
  const { html, text } = renderEmail({
    preheader: "Detectamos varios intentos fallidos de entrar a su cuenta.",
    heading: `Hola, ${to.name}`,
    paragraphs: [
      "Hubo varios intentos fallidos de iniciar sesión en su cuenta de Forja con una contraseña incorrecta.",
      `Por seguridad, pausamos el acceso con contraseña durante ${formatCount(lockMinutes, "minuto", "minutos")}. Después podrá entrar con normalidad.`,
      "Si no fue usted, le recomendamos restablecer su contraseña ahora y no usarla en otros sitios. Al restablecerla, el acceso se reactiva de inmediato.",
    ],
    action: { label: "Restablecer mi contraseña", url },
    footerNote: "Si fue usted y recuerda su contraseña, no necesita hacer nada más.",
  }, await getSiteFacts());
  await enqueueMail({ to: to.email, subject: "Intentos fallidos de entrar a su cuenta de Forja", html, text });
}

/** An invitation to the staff panel (/admin/personal): a one-time link to choose a password. */
export async function sendStaffInvitationEmail(to: { name: string; email: string }, token: string, invitation: { invitedBy: string; hours: number }): Promise<void> {
  const url = `${getEnv().publicUrl}/admin/bienvenida?token=${encodeURIComponent(token)}`;
  const { html, text } = renderEmail({
    preheader: "Elija su contraseña para entrar al panel de Forja.",
    heading: `Hola, ${to.name}`,
    paragraphs: [
      `${invitation.invitedBy} le invitó a usar el panel de administración de Forja con este correo.`,
      `Elija su contraseña con el botón de abajo. El enlace sirve una sola vez y vence en ${formatCount(invitation.hours, "hora", "horas")}; si vence, pida una invitación nueva a quien le invitó.`,
      "Si no esperaba este mensaje, ignórelo: sin contraseña nadie puede entrar con esta cuenta.",
    ],
    action: { label: "Elegir mi contraseña", url },
  }, await getSiteFacts());
  await enqueueMail({ to: to.email, subject: "Invitación al panel de Forja", html, text });
}

/** The message with a one-time sign-in code (docs/decisions/0061); the code is the message's point, so it leads. */
export async function oneTimeCodeEmail(to: { name: string }, code: string, minutes: number): Promise<ComposedEmail> {
  const { html, text } = renderEmail({
    preheader: `Su código para entrar a Forja: ${code}`,
    heading: `Hola, ${to.name}`,
    paragraphs: [
      `Su código para entrar a Forja es ${code}.`,
      `Escríbalo en la pantalla donde lo pidió. Sirve una sola vez y vence en ${formatCount(minutes, "minuto", "minutos")}.`,
      "Si usted no pidió este código, ignore este mensaje: sin el código nadie puede entrar. Nunca le pediremos este código, ni por teléfono ni por correo.",
    ],
  }, await getSiteFacts());
  return { subject: `Su código para entrar a Forja: ${code}`, html, text };
}

export async function sendOneTimeCodeEmail(to: { name: string; email: string }, code: string, minutes: number): Promise<void> {
  await enqueueMail({ to: to.email, ...(await oneTimeCodeEmail(to, code, minutes)) });
}

/** The account templates the settings' test email can send (PocketBase's names). */
const TEST_TEMPLATES: Readonly<Record<string, (to: { name: string }, token: string) => Promise<ComposedEmail>>> = {
  verification: confirmationEmail,
  "password-reset": passwordResetEmail,
  otp: (to) => oneTimeCodeEmail(to, "12345678", 3),
  "email-change": emailChangeEmail,
};

export const TEST_EMAIL_TEMPLATES = Object.keys(TEST_TEMPLATES);

/** A template as a test message (its link leads nowhere), or null for a template Forja has not. */
export async function testEmail(template: string): Promise<ComposedEmail | null> {
  const compose = TEST_TEMPLATES[template];
  if (!compose) return null;
  const email = await compose({ name: "equipo de Forja" }, "correo-de-prueba");
  return { ...email, subject: `Prueba: ${email.subject}` };
}

/**
 * Sends `template`'s test message to `to` right now, through the mail server the settings and the
 * environment give (POST /api/settings/test/email and /admin/sistema's «Enviar correo de prueba»).
 */
export async function sendTestEmail(to: string, template: string): Promise<{ ok: true } | { ok: false; reason: "template" | "send"; message: string }> {
  const email = await testEmail(template);
  if (!email) return { ok: false, reason: "template", message: `Elija una plantilla que Forja envía: ${TEST_EMAIL_TEMPLATES.join(", ")}.` };
  try {
    await sendNow({ to, ...email });
  } catch (error) {
    logger.warn({ err: error }, "settings: the test email could not be sent");
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: "send", message: `No se pudo enviar el correo de prueba: ${reason}` };
  }
  return { ok: true };
}

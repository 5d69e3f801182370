import type { Route } from "./+types/oauth2-redirect";
import { cspNonceContext } from "~/lib/request-context";
import { requestMeta } from "~/lib/request-meta";
import { publishToRealtimeClient } from "~/services/realtime/index.server";
import { readBoundedText } from "~/lib/request-body";

// GET|POST /api/oauth2-redirect — where a provider sends the browser back in the SDK's
// authWithOAuth2 popup flow (PocketBase's apis/record_auth_with_oauth2_redirect.go; 0018). The SDK
// put its realtime clientId in the OAuth2 `state`; we forward `{state, code[, error]}` to that client
// on the `@oauth2` topic, and the SDK then calls auth-with-oauth2 itself. POST is the provider's
// `response_mode=form_post`. The page closes itself; its text is for the person, in Spanish.
// Nothing is signed in here and no cookie is read or set.

const OAUTH2_TOPIC = "@oauth2";
/** PocketBase's client ids are 40 characters; anything much longer is not one. */
const MAX_STATE_LENGTH = 255;
/** A provider's code or error is a few hundred characters; the message must fit a notification. */
const MAX_VALUE_LENGTH = 2_048;
/** What a form_post can need: state, code, error and a little more. */
const MAX_BODY_BYTES = 16 * 1024;

interface RedirectData {
  state: string;
  code: string;
  error: string;
}

async function readRedirectData(request: Request): Promise<RedirectData | null> {
  if (request.method === "GET") {
    const query = new URL(request.url).searchParams;
    return { state: query.get("state") ?? "", code: query.get("code") ?? "", error: query.get("error") ?? "" };
  }
  const body = await readBoundedText(request, MAX_BODY_BYTES);
  if (body === null || body === "too-large") return null;
  const form = new URLSearchParams(body);
  return { state: form.get("state") ?? "", code: form.get("code") ?? "", error: form.get("error") ?? "" };
}

function page(nonce: string, success: boolean): Response {
  const [title, message] = success
    ? ["Inicio de sesión completado", "Listo. Puede cerrar esta ventana."]
    : ["No se pudo iniciar sesión", "No pudimos completar el inicio de sesión. Cierre esta ventana y vuelva a intentarlo desde la aplicación."];
  // The popup closes itself once the app has what it needs; the text stays if the browser refuses.
  const script = success ? `<script nonce="${nonce}">window.close();</script>` : "";
  const html = `<!doctype html>
<html lang="es-MX">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title} · Forja</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem auto; max-width: 32rem; padding: 0 1rem; color: #1f2937">
<h1 style="font-size: 1.25rem">${title}</h1>
<p>${message}</p>
${script}
</body>
</html>`;
  return new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

async function redirect(request: Request, context: Route.LoaderArgs["context"]): Promise<Response> {
  const nonce = context.get(cspNonceContext);
  const data = await readRedirectData(request);
  const fits = (value: string) => value.length <= MAX_VALUE_LENGTH;
  if (!data || !data.state || data.state.length > MAX_STATE_LENGTH || !fits(data.code) || !fits(data.error)) return page(nonce, false);
  // Checked where the client's stream is, on whichever process: subscribed to @oauth2, and the same
  // address that opened the stream finishes the sign-in, as PocketBase checks it.
  await publishToRealtimeClient(data.state, OAUTH2_TOPIC, { state: data.state, code: data.code, ...(data.error ? { error: data.error } : {}) }, { fromIp: requestMeta(request, context).ip });
  return page(nonce, !data.error && data.code !== "");
}

export function loader({ request, context }: Route.LoaderArgs) {
  return redirect(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return redirect(request, context);
}

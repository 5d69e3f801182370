import type { Route } from "./+types/contenido-bloqueo";
import { notFound } from "~/lib/errors";
import { readForm } from "~/lib/request-body";
import { failureStatus } from "~/lib/result";
import { heartbeat, releaseLock, takeOver } from "~/services/content/locks.server";
import { entryExists } from "~/features/site/editor/editor.server";
import { requireContentCollection } from "./contenido-acceso.server";

// The edit lock of a record (docs/decisions/0037, 0045): the open form's heartbeat («latido»,
// every 20 s), «Tomar el control», and the release a closing tab sends with navigator.sendBeacon.
// JSON answers for the page's fetchers; no page of its own.

export async function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { staff } = await requireContentCollection(request, context, params.coleccion);
  if (!(await entryExists(params.coleccion, params.id))) notFound(request);
  const actor = { id: staff.id, name: staff.name };
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const result =
    intent === "latido" ? await heartbeat(params.id, actor) : intent === "tomar" ? await takeOver(params.id, actor) : intent === "soltar" ? await releaseLock(params.id, actor) : null;
  if (!result) return Response.json({ message: "Acción desconocida." }, { status: 400 });
  if (!result.ok) return Response.json({ message: result.kind === "invalid" ? result.formErrors.join(" ") : result.message }, { status: failureStatus(result) });
  return Response.json({ intent, ...(result.value ?? {}) });
}

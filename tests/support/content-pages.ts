import { paragraphNode, richTextDocument, textNode } from "~/lib/rich-text/from-markdown";
import type { RichTextDocument } from "~/lib/rich-text/document";
import { paginas, type Pagina } from "~/features/site/content-collections/paginas";
import type { ContentActor } from "~/services/content/collection";
import { saveDraft } from "~/services/content/drafts.server";
import { publish } from "~/services/content/publish.server";

// Content pages written the way staff write them: a draft through the content store, then published.

export const TEST_EDITOR: ContentActor = { id: "editora-de-prueba", name: "Editora de prueba" };

export function plainBody(text: string): RichTextDocument {
  return richTextDocument([paragraphNode([textNode(text)])]);
}

/** Saves and publishes a `paginas` record; returns its id. */
export async function publishTestPage(page: Partial<Pagina> & { slug: string; titulo: string }, id?: string): Promise<string> {
  const data: Pagina = {
    titular: "",
    entrada: "",
    descripcion: `Página de prueba ${page.titulo} de Forja, con su descripción para buscadores.`,
    cuerpo: plainBody("Contenido de prueba."),
    cifras: [],
    imagen: null,
    publicado: true,
    ...page,
  };
  const saved = await saveDraft(paginas, { id, data }, TEST_EDITOR);
  if (!saved.ok) throw new Error(`The test page was refused: ${JSON.stringify(saved)}`);
  const published = await publish(paginas, saved.value.id, TEST_EDITOR);
  if (!published.ok) throw new Error(`The test page was not published: ${JSON.stringify(published)}`);
  return saved.value.id;
}

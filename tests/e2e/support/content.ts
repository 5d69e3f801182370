import type { Page } from "@playwright/test";
import { expect } from "./fixtures";
import { waitForHydration } from "./site";

// The content editor as the journeys drive it (issue 16): a question written in /admin/contenido and
// saved as a draft, the way an editor does it with the keyboard and the rich-text answer.

export interface QuestionDraft {
  question: string;
  answer: string;
  category: string;
  /** Ticks «Publicado» (the record is public once published; a draft stays hidden either way). */
  published?: boolean;
}

/** Opens a new question's form, saves it as a draft (not yet published) and answers its address. */
export async function createQuestionDraft(page: Page, draft: QuestionDraft): Promise<string> {
  await page.goto("/admin/contenido/preguntas/nuevo");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Agregar pregunta");
  await waitForHydration(page);
  await page.getByLabel("Pregunta", { exact: true }).fill(draft.question);
  const answer = page.getByRole("textbox", { name: "Respuesta" });
  await expect(answer).toHaveAttribute("contenteditable", "true");
  await answer.click();
  await page.keyboard.type(draft.answer);
  await page.getByLabel("Categoría", { exact: true }).fill(draft.category);
  if (draft.published) await page.getByLabel("Publicado", { exact: true }).check();
  await page.getByRole("button", { name: "Guardar borrador" }).click();
  await page.waitForURL(/\/admin\/contenido\/preguntas\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("record-state")).toHaveText("Sin publicar");
  await waitForHydration(page);
  return new URL(page.url()).pathname;
}

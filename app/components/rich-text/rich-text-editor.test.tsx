// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { RichTextEditor } from "./rich-text-editor";

const VALUE = JSON.stringify({
  root: {
    type: "root", version: 1, direction: null, format: "", indent: 0,
    children: [{ type: "paragraph", version: 1, direction: null, format: "", indent: 0, textFormat: 0, textStyle: "", children: [{ type: "text", version: 1, text: "Hola", format: 1, detail: 0, mode: "normal", style: "" }] }],
  },
});

let container: HTMLDivElement;
let root: Root;

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  // jsdom has no layout: Lexical asks a range for its box when it scrolls the caret into view.
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
  Range.prototype.getClientRects ??= () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
});

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

async function mount(props: Partial<Parameters<typeof RichTextEditor>[0]> = {}) {
  container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
  const changes: string[] = [];
  await act(async () => {
    root.render(<RichTextEditor name="descripcion" value={VALUE} html="<p><strong>Hola</strong></p>" label="Descripción" onChange={(json) => changes.push(json)} {...props} />);
  });
  return { changes };
}

/** Puts the caret (or a selection of the first paragraph's words) in the editor, as a click would. */
async function selectInEditor(collapsed: boolean): Promise<HTMLElement> {
  const editable = container.querySelector<HTMLElement>('[contenteditable="true"]')!;
  await act(async () => {
    editable.focus();
    const range = document.createRange();
    range.selectNodeContents(editable.querySelector("p") ?? editable);
    if (collapsed) range.collapse(true);
    document.getSelection()?.removeAllRanges();
    document.getSelection()?.addRange(range);
    document.dispatchEvent(new Event("selectionchange"));
  });
  return editable;
}

const button = (name: string) => {
  const found = Array.from(container.querySelectorAll("button")).find((element) => element.textContent === name);
  if (!found) throw new Error(`No hay botón «${name}»`);
  return found;
};

describe("RichTextEditor", () => {
  it("renders the server's HTML read-only with the stored value until hydrated", () => {
    const html = renderToString(<RichTextEditor name="descripcion" value={VALUE} html="<p><strong>Hola</strong></p>" label="Descripción" />);
    expect(html).toContain('aria-readonly="true"');
    expect(html).toContain("<p><strong>Hola</strong></p>");
    expect(html).toContain('name="descripcion"');
    expect(html).toContain(`value="${VALUE.replace(/"/g, "&quot;")}"`);
    expect(html).not.toContain("contenteditable");
  });

  it("runs the editor with the stored text and a toolbar of labelled buttons", async () => {
    await mount();
    const editable = container.querySelector('[contenteditable="true"]');
    expect(editable?.getAttribute("aria-label")).toBe("Descripción");
    expect(editable?.textContent).toBe("Hola");
    expect(editable?.querySelector("strong, .font-bold")).not.toBeNull();
    const toolbar = container.querySelector('[role="toolbar"]');
    expect(toolbar?.getAttribute("aria-label")).toBe("Formato de Descripción");
    expect(toolbar?.getAttribute("aria-controls")).toBe(editable?.id);
    const names = Array.from(toolbar!.querySelectorAll("button")).map((element) => element.textContent);
    expect(names).toEqual(["Título", "Subtítulo", "Negritas", "Cursivas", "Lista con viñetas", "Lista numerada", "Aumentar sangría", "Disminuir sangría", "Enlace", "Tabla", "Imagen", "Deshacer", "Rehacer"]);
    for (const name of ["Título", "Negritas", "Lista numerada", "Enlace"]) expect(button(name).getAttribute("aria-pressed")).toBe("false");
    expect(button("Imagen").disabled).toBe(true); // no media library plugged in
    expect(button("Aumentar sangría").disabled).toBe(true); // only list items nest
    expect(button("Deshacer").disabled).toBe(true);
    const hidden = container.querySelector<HTMLInputElement>('input[type="hidden"][name="descripcion"]');
    expect(JSON.parse(hidden!.value)).toEqual(JSON.parse(VALUE));
  });

  it("turns a paragraph into a heading and back, saying so with aria-pressed", async () => {
    const { changes } = await mount();
    await selectInEditor(false);
    expect(button("Negritas").getAttribute("aria-pressed")).toBe("true");
    await act(async () => button("Título").click());
    expect(button("Título").getAttribute("aria-pressed")).toBe("true");
    expect(container.querySelector('[contenteditable="true"] h2')?.textContent).toBe("Hola");
    expect(JSON.parse(changes.at(-1)!).root.children[0]).toMatchObject({ type: "heading", tag: "h2" });
    await act(async () => button("Título").click());
    expect(button("Título").getAttribute("aria-pressed")).toBe("false");
    expect(JSON.parse(changes.at(-1)!).root.children[0]).toMatchObject({ type: "paragraph" });
    await act(async () => button("Lista numerada").click());
    expect(button("Lista numerada").getAttribute("aria-pressed")).toBe("true");
    expect(JSON.parse(changes.at(-1)!).root.children[0]).toMatchObject({ type: "list", listType: "number" });
    // Nesting: the item moves one level down inside the list, and back.
    expect(button("Aumentar sangría").disabled).toBe(false);
    await act(async () => button("Aumentar sangría").click());
    const nested = JSON.parse(changes.at(-1)!).root.children[0];
    expect(nested.children[0].children[0]).toMatchObject({ type: "list", listType: "number" });
    await act(async () => button("Disminuir sangría").click());
    expect(JSON.parse(changes.at(-1)!).root.children[0].children[0].children[0]).toMatchObject({ type: "text", text: "Hola" });
  });

  it("refuses a javascript: link with a Spanish message and links a safe address", async () => {
    const { changes } = await mount();
    await selectInEditor(false);
    await act(async () => button("Enlace").click());
    const input = container.querySelector<HTMLInputElement>("input[inputmode=url]")!;
    expect(container.querySelector(`label[for="${input.id}"]`)?.textContent).toBe("Dirección del enlace");
    const type = async (value: string) =>
      act(async () => {
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
        setter.call(input, value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    await type("javascript:alert(1)");
    await act(async () => button("Aplicar").click());
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(container.textContent).toContain("Escriba una dirección completa (https://…)");
    expect(changes.join("")).not.toContain("javascript");
    await type("/cotiza");
    await act(async () => button("Aplicar").click());
    expect(JSON.parse(changes.at(-1)!).root.children[0].children[0]).toMatchObject({ type: "link", url: "/cotiza" });
    expect(button("Enlace").getAttribute("aria-pressed")).toBe("true");
  });

  it("starts empty on an unreadable value instead of failing", async () => {
    await mount({ value: "{roto" });
    expect(container.querySelector('[contenteditable="true"]')?.textContent).toBe("");
  });

  it("inserts an image from the media library and writes it to the field", async () => {
    const { changes } = await mount({ onPickImage: async () => ({ mediaId: "m-7", alt: "Brida" }), resolveImage: (id) => ({ src: `/medios/${id}.webp`, width: 10, height: 10 }) });
    await act(async () => {
      button("Imagen").click();
    });
    const last = JSON.parse(changes.at(-1) ?? "{}");
    expect(JSON.stringify(last)).toContain('"type":"image","version":1,"mediaId":"m-7","alt":"Brida"');
    expect(container.querySelector('img[src="/medios/m-7.webp"]')?.getAttribute("alt")).toBe("Brida");
    const hidden = container.querySelector<HTMLInputElement>('input[type="hidden"][name="descripcion"]');
    expect(hidden!.value).toBe(changes.at(-1));
    expect(button("Deshacer").disabled).toBe(false);
  });

  it("cleans pasted Word HTML before it enters the text", async () => {
    const { changes } = await mount({ value: "" });
    const editable = await selectInEditor(true);
    await act(async () => {
      const event = new Event("paste", { bubbles: true, cancelable: true });
      // Word's list paragraphs: Lexical alone would keep them as paragraphs starting with "·".
      const html =
        "<html xmlns:o='urn:schemas-microsoft-com:office:office'><body><!--StartFragment-->" +
        "<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt \"Times New Roman\"'>&nbsp;&nbsp; </span></span></span><![endif]><span style='font-family:Calibri'>Piezas en <b>aluminio</b></span><o:p></o:p></p>" +
        "<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt \"Times New Roman\"'>&nbsp;&nbsp; </span></span></span><![endif]>Acero<o:p></o:p></p>" +
        "<!--EndFragment--></body></html>";
      Object.defineProperty(event, "clipboardData", { value: { getData: (type: string) => (type === "text/html" ? html : "Piezas en aluminio"), types: ["text/html", "text/plain"] } });
      editable.dispatchEvent(event);
    });
    const json = changes.at(-1) ?? "";
    expect(json).toContain('"listType":"bullet"');
    expect(json).toContain('"text":"Piezas en "');
    expect(json).toContain('"text":"Acero"');
    expect(json).not.toContain("·");
    expect(json).toContain('"format":1,"mode":"normal","style":"","text":"aluminio"');
    expect(json).not.toMatch(/mso|Calibri|font-family/);
  });
});

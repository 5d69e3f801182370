import { $insertGeneratedNodes } from "@lexical/clipboard";
import { $generateNodesFromDOM } from "@lexical/html";
import { $createLinkNode, $isLinkNode, TOGGLE_LINK_COMMAND } from "@lexical/link";
import { $isListNode, INSERT_ORDERED_LIST_COMMAND, INSERT_UNORDERED_LIST_COMMAND, ListNode, REMOVE_LIST_COMMAND } from "@lexical/list";
import { LexicalComposer, type InitialConfigType } from "@lexical/react/LexicalComposer";
import { useLexicalComposerContext } from "@lexical/react/LexicalComposerContext";
import { ContentEditable } from "@lexical/react/LexicalContentEditable";
import { LexicalErrorBoundary } from "@lexical/react/LexicalErrorBoundary";
import { HistoryPlugin } from "@lexical/react/LexicalHistoryPlugin";
import { LinkPlugin } from "@lexical/react/LexicalLinkPlugin";
import { ListPlugin } from "@lexical/react/LexicalListPlugin";
import { OnChangePlugin } from "@lexical/react/LexicalOnChangePlugin";
import { RichTextPlugin } from "@lexical/react/LexicalRichTextPlugin";
import { TablePlugin } from "@lexical/react/LexicalTablePlugin";
import { $createHeadingNode, $isHeadingNode } from "@lexical/rich-text";
import { $setBlocksType } from "@lexical/selection";
import { INSERT_TABLE_COMMAND } from "@lexical/table";
import { $findMatchingParent, $getNearestNodeOfType, mergeRegister } from "@lexical/utils";
import {
  $createParagraphNode,
  $createTextNode,
  $getSelection,
  $insertNodes,
  $isRangeSelection,
  $isRootOrShadowRoot,
  $setSelection,
  type BaseSelection,
  CAN_REDO_COMMAND,
  CAN_UNDO_COMMAND,
  COMMAND_PRIORITY_CRITICAL,
  COMMAND_PRIORITY_HIGH,
  type EditorState,
  FORMAT_TEXT_COMMAND,
  INDENT_CONTENT_COMMAND,
  type LexicalEditor,
  OUTDENT_CONTENT_COMMAND,
  PASTE_COMMAND,
  REDO_COMMAND,
  SELECTION_CHANGE_COMMAND,
  UNDO_COMMAND,
} from "lexical";
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { useHydrated } from "~/lib/app-shell/use-hydrated";
import { cleanPastedHtml } from "~/lib/rich-text/clean-paste";
import { validateRichText } from "~/lib/rich-text/document";
import { $createImageNode, ImagePreviewContext, type ImagePreviewSource } from "~/lib/rich-text/image-node";
import { safeLink } from "~/lib/rich-text/links";
import { richTextNodes } from "~/lib/rich-text/nodes";
import { RichTextFallback, richTextSurfaceClass } from "./rich-text-fallback";

// The long-text editor of /admin (docs/decisions/0039). Admin routes load it with
// React.lazy(() => import("~/components/rich-text/rich-text-editor")) so Lexical never reaches a
// public page's bundle; until it is running, the field shows the server's HTML read-only.

export interface PickedImage {
  mediaId: string;
  alt: string;
}

export interface RichTextEditorProps {
  /** The form field that carries the JSON (a hidden input). */
  name: string;
  /** The stored JSON string; empty for a new text. */
  value: string;
  /** The server's rendering of `value` (renderRichText), shown until the editor runs. */
  html: string;
  /** The field's name for assistive technology, e.g. "Descripción". */
  label: string;
  id?: string;
  describedBy?: string;
  invalid?: boolean;
  onChange?: (json: string) => void;
  /** Opens the media library; resolves to the chosen image, or null when the person cancels. */
  onPickImage?: () => Promise<PickedImage | null>;
  /** How the editor shows an image of the library. */
  resolveImage?: (mediaId: string) => ImagePreviewSource | null;
}

const theme: InitialConfigType["theme"] = {
  paragraph: "my-2",
  quote: "border-l-4 border-acero-300 pl-3",
  heading: { h2: "mt-4 text-xl font-bold", h3: "mt-3 text-lg font-semibold", h4: "mt-2 font-semibold" },
  list: {
    ul: "list-disc pl-6",
    ol: "list-decimal pl-6",
    nested: { listitem: "list-none" },
  },
  link: "text-forja-700 underline",
  text: { bold: "font-bold", italic: "italic", underline: "underline", strikethrough: "line-through", code: "rounded bg-acero-100 px-1 font-mono text-sm" },
  table: "my-2 border-collapse",
  tableCell: "border border-acero-300 px-2 py-1 align-top",
  tableCellHeader: "bg-acero-100 font-semibold",
};

const buttonClass =
  "rounded px-2 py-1 text-sm font-medium text-acero-900 hover:bg-acero-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-forja-600 aria-pressed:bg-forja-100 aria-pressed:text-forja-900 disabled:cursor-not-allowed disabled:text-acero-400 disabled:hover:bg-transparent";

type BlockType = "paragraph" | "h2" | "h3" | "h4" | "bullet" | "number" | "other";

interface ToolbarState {
  block: BlockType;
  bold: boolean;
  italic: boolean;
  link: string | null;
}

function readToolbarState(): ToolbarState {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) return { block: "other", bold: false, italic: false, link: null };
  const anchor = selection.anchor.getNode();
  const top =
    anchor.getKey() === "root"
      ? anchor
      : ($findMatchingParent(anchor, (node) => {
          const parent = node.getParent();
          return parent !== null && $isRootOrShadowRoot(parent);
        }) ?? anchor);
  let block: BlockType = "other";
  if ($isListNode(top)) {
    const list = $getNearestNodeOfType(anchor, ListNode) ?? top;
    block = list.getListType() === "number" ? "number" : "bullet";
  } else if ($isHeadingNode(top)) {
    const tag = top.getTag();
    block = tag === "h2" || tag === "h3" || tag === "h4" ? tag : "other";
  } else if (top.getType() === "paragraph") block = "paragraph";
  const link = $findMatchingParent(anchor, $isLinkNode);
  return { block, bold: selection.hasFormat("bold"), italic: selection.hasFormat("italic"), link: $isLinkNode(link) ? link.getURL() : null };
}

/** Pasted HTML goes through the same cleaner as the server's HTML import. */
function usePasteCleaner(editor: LexicalEditor): void {
  useEffect(
    () =>
      editor.registerCommand(
        PASTE_COMMAND,
        (event) => {
          const data = "clipboardData" in event ? event.clipboardData : null;
          const html = data?.getData("text/html");
          if (!html) return false; // plain text: Lexical's own paste
          event.preventDefault();
          editor.update(() => {
            const selection = $getSelection();
            if (!selection) return;
            const document = new DOMParser().parseFromString(cleanPastedHtml(html), "text/html");
            $insertGeneratedNodes(editor, $generateNodesFromDOM(editor, document), selection);
          });
          return true;
        },
        COMMAND_PRIORITY_HIGH,
      ),
    [editor],
  );
}

function ToolbarButton({ label, pressed, disabled, onClick, children }: { label: string; pressed?: boolean; disabled?: boolean; onClick: () => void; children?: ReactNode }) {
  return (
    <button type="button" className={buttonClass} aria-pressed={pressed} disabled={disabled} onClick={onClick}>
      {children ?? label}
    </button>
  );
}

function LinkForm({ initial, onApply, onRemove, onClose }: { initial: string; onApply: (href: string) => void; onRemove: (() => void) | null; onClose: () => void }) {
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const [url, setUrl] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const link = safeLink(url);
    if (!link) {
      setError("Escriba una dirección completa (https://…), una ruta del sitio (/…), un correo (mailto:…) o un teléfono (tel:…).");
      return;
    }
    onApply(link.href);
  };
  return (
    <div className="flex flex-wrap items-end gap-2 border-t border-acero-200 bg-acero-50 px-3 py-2">
      <div className="min-w-64 flex-1">
        <label htmlFor={inputId} className="block text-sm font-semibold text-acero-900">
          Dirección del enlace
        </label>
        <input
          id={inputId}
          type="text"
          inputMode="url"
          autoFocus
          value={url}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => setUrl(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              apply();
            } else if (event.key === "Escape") {
              event.preventDefault();
              onClose();
            }
          }}
          className="mt-1 block w-full rounded-md border border-acero-300 bg-white px-3 py-1.5 text-base focus-visible:outline-2 focus-visible:outline-forja-600 aria-[invalid=true]:border-red-700"
        />
        {error ? (
          <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </div>
      <button type="button" className={`${buttonClass} bg-forja-700 text-white hover:bg-forja-800`} onClick={apply}>
        Aplicar
      </button>
      {onRemove ? (
        <button type="button" className={buttonClass} onClick={onRemove}>
          Quitar enlace
        </button>
      ) : null}
      <button type="button" className={buttonClass} onClick={onClose}>
        Cancelar
      </button>
    </div>
  );
}

function Toolbar({ label, editorId, onPickImage }: { label: string; editorId: string; onPickImage?: () => Promise<PickedImage | null> }) {
  const [editor] = useLexicalComposerContext();
  const [state, setState] = useState<ToolbarState>({ block: "paragraph", bold: false, italic: false, link: null });
  const [canUndo, setCanUndo] = useState(false);
  const [canRedo, setCanRedo] = useState(false);
  const [linkOpen, setLinkOpen] = useState(false);
  const [imageBusy, setImageBusy] = useState(false);
  // The selection when a form outside the text (link address, media library) took the focus.
  const savedSelection = useRef<BaseSelection | null>(null);

  useEffect(
    () =>
      mergeRegister(
        editor.registerUpdateListener(({ editorState }) => editorState.read(() => setState(readToolbarState()))),
        editor.registerCommand(
          SELECTION_CHANGE_COMMAND,
          () => {
            setState(readToolbarState());
            return false;
          },
          COMMAND_PRIORITY_CRITICAL,
        ),
        editor.registerCommand(
          CAN_UNDO_COMMAND,
          (value) => {
            setCanUndo(value);
            return false;
          },
          COMMAND_PRIORITY_CRITICAL,
        ),
        editor.registerCommand(
          CAN_REDO_COMMAND,
          (value) => {
            setCanRedo(value);
            return false;
          },
          COMMAND_PRIORITY_CRITICAL,
        ),
      ),
    [editor],
  );

  const saveSelection = () => {
    savedSelection.current = editor.getEditorState().read(() => $getSelection()?.clone() ?? null);
  };
  const restoreSelection = () => {
    const saved = savedSelection.current;
    if (saved) $setSelection(saved.clone());
  };

  const inList = state.block === "bullet" || state.block === "number";
  const toggleHeading = (tag: "h2" | "h3") => {
    editor.update(() => {
      const selection = $getSelection();
      if ($isRangeSelection(selection)) $setBlocksType(selection, () => (state.block === tag ? $createParagraphNode() : $createHeadingNode(tag)));
    });
  };
  const toggleList = (type: "bullet" | "number") => {
    if (state.block === type) editor.dispatchCommand(REMOVE_LIST_COMMAND, undefined);
    else editor.dispatchCommand(type === "bullet" ? INSERT_UNORDERED_LIST_COMMAND : INSERT_ORDERED_LIST_COMMAND, undefined);
  };
  const applyLink = (href: string) => {
    editor.update(() => {
      restoreSelection();
      const selection = $getSelection();
      if ($isRangeSelection(selection) && selection.isCollapsed() && !state.link) {
        // Nothing selected: the address itself becomes the linked words.
        const link = $createLinkNode(href);
        link.append($createTextNode(href));
        $insertNodes([link]);
      } else {
        editor.dispatchCommand(TOGGLE_LINK_COMMAND, href);
      }
    });
    setLinkOpen(false);
    editor.focus();
  };
  const removeLink = () => {
    editor.update(() => {
      restoreSelection();
      editor.dispatchCommand(TOGGLE_LINK_COMMAND, null);
    });
    setLinkOpen(false);
    editor.focus();
  };
  const pickImage = async () => {
    if (!onPickImage) return;
    saveSelection();
    setImageBusy(true);
    try {
      const picked = await onPickImage();
      if (!picked) return;
      editor.update(() => {
        restoreSelection();
        $insertNodes([$createImageNode(picked.mediaId, picked.alt)]);
      });
      editor.focus();
    } finally {
      setImageBusy(false);
    }
  };

  return (
    <div className="rounded-t-md border border-b-0 border-acero-300 bg-acero-50">
      <div role="toolbar" aria-label={`Formato de ${label}`} aria-controls={editorId} className="flex flex-wrap items-center gap-1 px-2 py-1">
        <ToolbarButton label="Título" pressed={state.block === "h2"} onClick={() => toggleHeading("h2")} />
        <ToolbarButton label="Subtítulo" pressed={state.block === "h3"} onClick={() => toggleHeading("h3")} />
        <span className="mx-1 h-5 w-px bg-acero-300" aria-hidden="true" />
        <ToolbarButton label="Negritas" pressed={state.bold} onClick={() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, "bold")}>
          <strong>Negritas</strong>
        </ToolbarButton>
        <ToolbarButton label="Cursivas" pressed={state.italic} onClick={() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, "italic")}>
          <em>Cursivas</em>
        </ToolbarButton>
        <span className="mx-1 h-5 w-px bg-acero-300" aria-hidden="true" />
        <ToolbarButton label="Lista con viñetas" pressed={state.block === "bullet"} onClick={() => toggleList("bullet")} />
        <ToolbarButton label="Lista numerada" pressed={state.block === "number"} onClick={() => toggleList("number")} />
        {/* Tab leaves the editor (no keyboard trap), so nesting a list item has buttons of its own. */}
        <ToolbarButton label="Aumentar sangría" disabled={!inList} onClick={() => editor.dispatchCommand(INDENT_CONTENT_COMMAND, undefined)} />
        <ToolbarButton label="Disminuir sangría" disabled={!inList} onClick={() => editor.dispatchCommand(OUTDENT_CONTENT_COMMAND, undefined)} />
        <span className="mx-1 h-5 w-px bg-acero-300" aria-hidden="true" />
        <ToolbarButton
          label="Enlace"
          pressed={state.link !== null}
          onClick={() => {
            saveSelection();
            setLinkOpen((open) => !open);
          }}
        />
        <ToolbarButton label="Tabla" onClick={() => editor.dispatchCommand(INSERT_TABLE_COMMAND, { rows: "3", columns: "3", includeHeaders: { rows: true, columns: false } })} />
        <ToolbarButton label="Imagen" disabled={!onPickImage || imageBusy} onClick={() => void pickImage()} />
        <span className="mx-1 h-5 w-px bg-acero-300" aria-hidden="true" />
        <ToolbarButton label="Deshacer" disabled={!canUndo} onClick={() => editor.dispatchCommand(UNDO_COMMAND, undefined)} />
        <ToolbarButton label="Rehacer" disabled={!canRedo} onClick={() => editor.dispatchCommand(REDO_COMMAND, undefined)} />
      </div>
      {linkOpen ? (
        <LinkForm
          initial={state.link ?? "https://"}
          onApply={applyLink}
          onRemove={state.link ? removeLink : null}
          onClose={() => {
            setLinkOpen(false);
            editor.focus();
          }}
        />
      ) : null}
    </div>
  );
}

function PasteCleaner() {
  const [editor] = useLexicalComposerContext();
  usePasteCleaner(editor);
  return null;
}

/** The stored JSON as Lexical's initial state; an empty or unreadable value starts an empty text. */
function initialState(value: string): string | undefined {
  const result = validateRichText(value);
  return result.success && result.data.root.children.length > 0 ? JSON.stringify(result.data) : undefined;
}

function LiveEditor({ name, value, label, id, describedBy, invalid, onChange, onPickImage, resolveImage }: RichTextEditorProps) {
  const generatedId = useId();
  const editorId = id ?? `${generatedId}-texto`;
  const [json, setJson] = useState(value);
  const initialConfig = useMemo<InitialConfigType>(
    () => ({
      namespace: "forja-contenido",
      nodes: [...richTextNodes],
      theme,
      editorState: initialState(value),
      onError: (error) => {
        throw error;
      },
    }),
    // The editor owns the text once it runs; a new `value` from the route does not reset it.
    [],
  );
  const handleChange = useCallback(
    (editorState: EditorState) => {
      const next = JSON.stringify(editorState.toJSON());
      setJson(next);
      onChange?.(next);
    },
    [onChange],
  );

  return (
    <ImagePreviewContext.Provider value={resolveImage ?? null}>
      <LexicalComposer initialConfig={initialConfig}>
        <Toolbar label={label} editorId={editorId} onPickImage={onPickImage} />
        <div className="relative">
          <RichTextPlugin
            contentEditable={
              <ContentEditable
                id={editorId}
                aria-label={label}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                className={`${richTextSurfaceClass} focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-forja-600`}
              />
            }
            ErrorBoundary={LexicalErrorBoundary}
          />
        </div>
        <HistoryPlugin />
        <ListPlugin />
        <LinkPlugin validateUrl={(url) => safeLink(url) !== null} />
        <TablePlugin hasCellMerge={false} hasCellBackgroundColor={false} />
        <OnChangePlugin onChange={handleChange} ignoreSelectionChange />
        <PasteCleaner />
      </LexicalComposer>
      <input type="hidden" name={name} value={json} />
    </ImagePreviewContext.Provider>
  );
}

/** The long-text field: the server's HTML until hydrated, then the editor. */
export function RichTextEditor(props: RichTextEditorProps) {
  const hydrated = useHydrated();
  if (!hydrated) return <RichTextFallback name={props.name} value={props.value} html={props.html} label={props.label} id={props.id} />;
  return <LiveEditor {...props} />;
}

export default RichTextEditor;

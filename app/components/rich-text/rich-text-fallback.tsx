// What a long-text field shows before the editor is running: the server's rendering of the text,
// read-only, and the hidden field that keeps the stored value in the form. Routes use it as the
// Suspense fallback of the lazily loaded editor; it imports nothing of the editor itself.

export interface RichTextFallbackProps {
  /** The form field that carries the JSON. */
  name: string;
  /** The stored JSON string. */
  value: string;
  /** The text rendered by renderRichText on the server (already sanitized). */
  html: string;
  label: string;
  id?: string;
}

export const richTextSurfaceClass =
  "rich-text min-h-40 rounded-b-md border border-acero-300 bg-white px-3 py-2 text-base text-acero-900 [&_a]:text-forja-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-acero-300 [&_blockquote]:pl-3 [&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-bold [&_h3]:mt-3 [&_h3]:text-lg [&_h3]:font-semibold [&_h4]:mt-2 [&_h4]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-2 [&_table]:my-2 [&_table]:border-collapse [&_td]:border [&_td]:border-acero-300 [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-acero-300 [&_th]:bg-acero-100 [&_th]:px-2 [&_th]:py-1 [&_ul]:list-disc [&_ul]:pl-6";

export function RichTextFallback({ name, value, html, label, id }: RichTextFallbackProps) {
  return (
    <div>
      <div className="rounded-t-md border border-b-0 border-acero-300 bg-acero-50 px-3 py-2 text-sm text-acero-700" aria-live="polite">
        Cargando el editor…
      </div>
      <div id={id} role="textbox" aria-label={label} aria-multiline="true" aria-readonly="true" className={richTextSurfaceClass} dangerouslySetInnerHTML={{ __html: html }} />
      <input type="hidden" name={name} value={value} />
    </div>
  );
}

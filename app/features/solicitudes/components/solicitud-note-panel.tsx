import type { ReactNode } from "react";
import { Form } from "react-router";
import { SolicitudPanel } from "./solicitud-panel";

// An internal note on a solicitud, for the staff only; it goes to the history with their name.

export interface SolicitudNotePanelProps {
  /** The number of history events: a saved note adds one, which empties the form. */
  eventCount: number;
  /** The outcome of the last note posted from this page, if any. */
  feedback: ReactNode;
  /** Whether that note was refused; then `keptNote` is what was written and `errorId` names the message. */
  refused: boolean;
  errorId: string;
  keptNote: string;
  busy: boolean;
}

export function SolicitudNotePanel({ eventCount, feedback, refused, errorId, keptNote, busy }: SolicitudNotePanelProps) {
  return (
    <SolicitudPanel title="Nota interna" id="seccion-nota">
      {/* No browser validation: an empty note is refused by the server with a Spanish message next to the field. */}
      <Form method="post" className="space-y-3" key={eventCount} noValidate>
        <label htmlFor="nota" className="block text-sm font-semibold text-acero-900">
          Nota para el equipo
        </label>
        <textarea
          id="nota"
          name="note"
          rows={4}
          maxLength={5000}
          required
          defaultValue={refused ? keptNote : ""}
          aria-describedby={refused ? `nota-ayuda ${errorId}` : "nota-ayuda"}
          aria-invalid={refused ? true : undefined}
          className="block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-acero-900"
        />
        <p id="nota-ayuda" className="text-xs text-acero-600">
          Solo la ve el personal; queda en el historial con su nombre.
        </p>
        {feedback}
        <button type="submit" name="intent" value="nota" className="btn-dark w-full py-2" disabled={busy}>
          Guardar nota
        </button>
      </Form>
    </SolicitudPanel>
  );
}

import type { ReactNode } from "react";
import { Form } from "react-router";
import { statusLabel, type SolicitudStatus } from "../states";
import { StatusPill } from "./solicitud-badges";
import { SolicitudPanel } from "./solicitud-panel";

// The status of a solicitud on the staff page and the move to the next one; only the moves the
// state table allows are offered, and a final status says so.

export interface SolicitudStatusPanelProps {
  status: SolicitudStatus;
  nextStatuses: readonly SolicitudStatus[];
  /** The outcome of the last status change posted from this page, if any. */
  feedback: ReactNode;
  /** Whether that change was refused (its message is "error-estado"). */
  refused: boolean;
  busy: boolean;
}

export function SolicitudStatusPanel({ status, nextStatuses, feedback, refused, busy }: SolicitudStatusPanelProps) {
  return (
    <SolicitudPanel title="Estado" id="seccion-estado">
      <p className="flex items-center gap-2 text-acero-800">
        Estado actual: <StatusPill status={status} />
      </p>
      {feedback}
      {nextStatuses.length ? (
        <Form method="post" className="mt-4 space-y-3">
          <label htmlFor="nuevo-estado" className="block text-sm font-semibold text-acero-900">
            Cambiar a
          </label>
          <select
            id="nuevo-estado"
            name="status"
            required
            defaultValue={nextStatuses[0]}
            className="block w-full rounded-md border border-acero-300 bg-white px-3 py-2 text-acero-900"
            aria-describedby={refused ? "error-estado" : undefined}
          >
            {nextStatuses.map((next) => (
              <option key={next} value={next}>
                {statusLabel(next)}
              </option>
            ))}
          </select>
          <button type="submit" name="intent" value="estado" className="btn-dark w-full py-2" disabled={busy}>
            Cambiar estado
          </button>
        </Form>
      ) : (
        <p className="mt-3 text-sm text-acero-700">«{statusLabel(status)}» es un estado final; ya no cambia.</p>
      )}
    </SolicitudPanel>
  );
}

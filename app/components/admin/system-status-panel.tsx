import { useCallback, useEffect, useState } from "react";
import { useHydrated } from "~/lib/app-shell/use-hydrated";
import { endSentence, formatDateTime } from "~/lib/format";
import { probeSystemStatus, type SystemStatus } from "~/lib/system-status";

// "Estado del sistema" on the staff dashboard: checkHealth() against /api/health, from the staff
// member's browser once the page is interactive (so the figure is the real path: browser → server
// → database), again on request. Without JavaScript it says it needs it.

const ms = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 1 });

export function SystemStatusPanel() {
  const hydrated = useHydrated();
  const [status, setStatus] = useState<SystemStatus | null>(null);
  const [checking, setChecking] = useState(false);

  const check = useCallback(async () => {
    setChecking(true);
    try {
      setStatus(await probeSystemStatus());
    } finally {
      setChecking(false);
    }
  }, []);

  useEffect(() => {
    void check();
  }, [check]);

  return (
    <section aria-labelledby="estado-sistema" className="rounded-lg border border-acero-200 bg-white p-5" data-testid="system-status">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="estado-sistema" className="text-lg font-semibold text-acero-900">
          Estado del sistema
        </h2>
        <button type="button" className="btn-secondary text-sm" onClick={() => void check()} disabled={!hydrated || checking}>
          {checking ? "Comprobando…" : "Comprobar de nuevo"}
        </button>
      </div>
      <div aria-live="polite" className="mt-3">
        {!hydrated ? (
          <p className="text-acero-700">La comprobación se hace desde su navegador y necesita JavaScript.</p>
        ) : !status ? (
          <p className="text-acero-700">Comprobando el sitio y la base de datos…</p>
        ) : status.ok ? (
          <>
            <p className="font-semibold text-green-800">
              <span aria-hidden="true">● </span>En línea: el sitio y la base de datos responden.
            </p>
            <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-acero-600">Base de datos</dt>
                <dd className="font-medium text-acero-900">{status.database ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-acero-600">Ida y vuelta a la base de datos</dt>
                <dd className="font-medium text-acero-900" data-testid="database-ms">
                  {status.databaseMs === null ? "—" : `${ms.format(status.databaseMs)} ms`}
                </dd>
              </div>
              <div>
                <dt className="text-acero-600">Respuesta completa desde su navegador</dt>
                <dd className="font-medium text-acero-900">{ms.format(status.totalMs)} ms</dd>
              </div>
            </dl>
          </>
        ) : (
          <>
            <p className="font-semibold text-red-800">
              <span aria-hidden="true">● </span>
              {status.title}
            </p>
            {status.detail ? <p className="mt-1 text-sm text-acero-700">Detalle: {status.detail}</p> : null}
            <p className="mt-1 text-sm text-acero-700">Vuelva a comprobar en un minuto; si sigue igual, avise a quien administra el servidor.</p>
          </>
        )}
        {hydrated && status ? <p className="mt-2 text-xs text-acero-600">{endSentence(`Última comprobación: ${formatDateTime(status.checkedAt)}`)}</p> : null}
      </div>
    </section>
  );
}

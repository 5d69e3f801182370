import { AppLink } from "~/components/ui/app-link";
import { TableScroll } from "~/components/ui/table-scroll";
import { formatDateTime } from "~/lib/format";
import type { EntryRow } from "../editor.server";

// The records of one collection in /admin/contenido: name, address, state, who edited last and when.

const linkClass = "font-semibold text-forja-700 underline underline-offset-2";

const STATE_CLASS: Record<EntryRow["state"], string> = {
  publicado: "text-green-800",
  cambios: "text-amber-800",
  programado: "text-forja-800",
  borrador: "text-acero-700",
};

export function EntriesTable({ collection, label, rows }: { collection: string; label: string; rows: readonly EntryRow[] }) {
  const hasSlugs = rows.some((row) => row.slug);
  return (
    <TableScroll label={label} className="mt-3 rounded-lg border border-acero-200 bg-white">
      <table className="min-w-full divide-y divide-acero-200 text-sm">
        <caption className="sr-only">{label}</caption>
        <thead className="bg-acero-50 text-left text-acero-800">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Registro
            </th>
            {hasSlugs ? (
              <th scope="col" className="px-4 py-3 font-semibold">
                Dirección
              </th>
            ) : null}
            <th scope="col" className="px-4 py-3 font-semibold">
              Estado
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Última edición
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-acero-100">
          {rows.map((row) => (
            <tr key={row.id} data-testid="content-row">
              <td className="min-w-64 px-4 py-3">
                <AppLink to={`/admin/contenido/${collection}/${row.id}`} className={linkClass}>
                  {row.title}
                </AppLink>
                {row.lockedBy ? <span className="block text-xs text-acero-700">Lo está editando {row.lockedBy}</span> : null}
              </td>
              {hasSlugs ? <td className="px-4 py-3 font-mono whitespace-nowrap">{row.slug ?? ""}</td> : null}
              <td className={`px-4 py-3 font-semibold ${STATE_CLASS[row.state]}`}>{row.stateLabel}</td>
              <td className="px-4 py-3 whitespace-nowrap text-acero-800">
                {row.editedBy && row.editedAt ? (
                  <>
                    {row.editedBy}
                    <span className="block text-xs text-acero-700">{formatDateTime(row.editedAt)}</span>
                  </>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

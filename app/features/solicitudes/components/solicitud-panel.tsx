import type { ReactNode } from "react";

// The frame shared by the sections of the staff solicitud page (/admin/formularios/:id): a titled
// panel, a labelled value (a dash when empty) and the label of a stored option value.

export { optionLabel } from "../forms";

export function SolicitudField({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  const empty = children === null || children === undefined || children === "" || (Array.isArray(children) && children.length === 0);
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-sm font-semibold text-acero-700">{label}</dt>
      <dd className="mt-0.5 text-acero-900">{empty ? <span className="text-acero-600">—</span> : children}</dd>
    </div>
  );
}

export function SolicitudPanel({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-acero-200 bg-white p-5">
      <h2 id={id} className="text-lg font-semibold text-acero-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

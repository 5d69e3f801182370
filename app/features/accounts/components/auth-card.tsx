import type { ReactNode } from "react";

/** The frame of the sign-in, registration and recovery screens. */
export function AuthCard({ eyebrow = "Mi cuenta", title, lead, children, footer }: { eyebrow?: string; title: string; lead?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="container-page flex justify-center py-12 sm:py-16">
      <div className="w-full max-w-md">
        <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">{eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold text-acero-900">{title}</h1>
        {lead ? <div className="mt-3 text-acero-700">{lead}</div> : null}
        <div className="mt-8 rounded-lg border border-acero-200 bg-white p-6 shadow-sm">{children}</div>
        {footer ? <div className="mt-6 space-y-2 text-sm text-acero-700">{footer}</div> : null}
      </div>
    </div>
  );
}

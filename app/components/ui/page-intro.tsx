import type { ReactNode } from "react";

interface PageIntroProps {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
}

/** The heading block every page opens with: one h1, an optional lead and actions. */
export function PageIntro({ eyebrow, title, lead, children }: PageIntroProps) {
  return (
    <div className="border-b border-acero-200 bg-acero-50">
      <div className="container-page py-12 wrap-anywhere sm:py-16">
        {eyebrow ? <p className="text-sm font-semibold tracking-wide text-forja-700 uppercase">{eyebrow}</p> : null}
        <h1 className="mt-2 max-w-3xl text-3xl font-bold tracking-tight text-acero-900 sm:text-4xl">{title}</h1>
        {lead ? <div className="mt-4 max-w-3xl text-lg text-acero-700">{lead}</div> : null}
        {children ? <div className="mt-6 flex flex-wrap gap-3">{children}</div> : null}
      </div>
    </div>
  );
}

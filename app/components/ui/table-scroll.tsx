import type { ReactNode } from "react";

/**
 * The box a table scrolls in when it is wider than the screen, so the page itself never scrolls
 * sideways. It is a named region the keyboard can reach (once focused, the arrow keys scroll it), as
 * WCAG asks of a scrollable area. `relative` keeps absolutely placed content (the sr-only texts of
 * sortable headers) inside the box, so it cannot widen the page either; `wrap-normal` keeps a page's
 * `wrap-anywhere` from squeezing the columns to break words (the box scrolls). `className` adds the
 * border, background and margins of each page.
 */
export function TableScroll({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`relative overflow-x-auto wrap-normal ${className}`}>
      {children}
    </div>
  );
}

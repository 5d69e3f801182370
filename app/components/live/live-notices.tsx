import { useCallback, useEffect, useRef, useState } from "react";
import { AppLink } from "~/components/ui/app-link";

// Short notices of what just changed on a live page ("Nueva solicitud SOL-2026-0042"), each one a
// role="status" message added to a polite live region that is always in the page (a region added
// together with its text is not reliably announced). The empty region has no role, so a page's own
// status messages stay the only ones until a notice arrives. Each notice leaves after a while; the
// page's own data already shows the change.

export interface LiveNotice {
  /** Unique per notice (a record id and its action), so the same event is never shown twice. */
  id: string;
  text: string;
  /** An optional link after the text: the new record's page, or a section of this page ("#mensajes"). */
  link?: { to: string; label: string };
}

const VISIBLE_MS = 10_000;
const linkClass = "text-forja-700 underline underline-offset-2";
const MAX_SHOWN = 3;

export function useLiveNotices(): { notices: LiveNotice[]; announce: (notice: LiveNotice) => void } {
  const [notices, setNotices] = useState<LiveNotice[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const announce = useCallback((notice: LiveNotice) => {
    if (timers.current.has(notice.id)) return;
    setNotices((shown) => [...shown, notice].slice(-MAX_SHOWN));
    timers.current.set(
      notice.id,
      setTimeout(() => {
        timers.current.delete(notice.id);
        setNotices((shown) => shown.filter((item) => item.id !== notice.id));
      }, VISIBLE_MS),
    );
  }, []);

  return { notices, announce };
}

export function LiveNotices({ notices }: { notices: readonly LiveNotice[] }) {
  return (
    <div aria-live="polite" className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2">
      {notices.map((notice) => (
        <p key={notice.id} role="status" className="pointer-events-auto rounded-md border border-l-4 border-acero-200 border-l-forja-600 bg-white p-3 text-sm font-semibold text-acero-900 shadow-lg">
          {notice.text}
          {notice.link ? (
            <>
              {" "}
              {notice.link.to.startsWith("#") ? (
                <a href={notice.link.to} className={linkClass}>
                  {notice.link.label}
                </a>
              ) : (
                <AppLink to={notice.link.to} className={linkClass}>
                  {notice.link.label}
                </AppLink>
              )}
            </>
          ) : null}
        </p>
      ))}
    </div>
  );
}

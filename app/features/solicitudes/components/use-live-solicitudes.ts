import { useLiveNotices, type LiveNotice } from "~/components/live/live-notices";
import { useLiveUpdates } from "~/lib/live/use-live-updates";

// The staff pages that list requests (/admin, /admin/formularios) are live: any request created or
// changed (read, status, files) reloads their data, and a new one is named in a notice with a link.

export function useLiveSolicitudes(): LiveNotice[] {
  const { notices, announce } = useLiveNotices();
  useLiveUpdates(["solicitudes/*"], {
    onEvent({ action, record }) {
      const id = String(record.id ?? "");
      const number = String(record.numero ?? "");
      if (action !== "create" || !id || !number) return;
      announce({ id: `solicitud:${id}`, text: "Nueva solicitud", link: { to: `/admin/formularios/${id}`, label: number } });
    },
  });
  return notices;
}

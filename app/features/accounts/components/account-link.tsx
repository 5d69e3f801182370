import { AppLink } from "~/components/ui/app-link";
import { useSession } from "../session-store";

/**
 * "Mi cuenta" → /cuenta for someone signed in, "Iniciar sesión" → /login for anyone else: rendered
 * so by the server (cached pages keep a variant for each) and checked again in the browser. The
 * label stays "Mi cuenta" once the name is known, so the header never changes width; the name goes
 * in the tooltip (docs/decisions/0031-cached-forms.md).
 */
export function AccountLink({ className }: { className: string }) {
  const session = useSession();
  if (session.status === "signed-in") {
    return (
      <AppLink
        to="/cuenta"
        className={className}
        data-testid="account-link"
        data-state="signed-in"
        title={session.name ? `Sesión iniciada como ${session.name}` : undefined}
      >
        Mi cuenta
      </AppLink>
    );
  }
  return (
    <AppLink to="/login" className={className} data-testid="account-link" data-state="signed-out">
      Iniciar sesión
    </AppLink>
  );
}

import { AppLink } from "~/components/ui/app-link";
import { useSession } from "../session-store";

/** "Mi cuenta" before hydration (it works either way), then the visitor's real state. */
export function AccountLink({ className }: { className: string }) {
  const session = useSession();
  if (session.status === "signed-in") {
    return (
      <AppLink to="/cuenta" className={className} data-testid="account-link" data-state="signed-in">
        {session.name ? `Hola, ${session.name.split(" ")[0]}` : "Mi cuenta"}
      </AppLink>
    );
  }
  return (
    <AppLink to={session.status === "signed-out" ? "/login" : "/cuenta"} className={className} data-testid="account-link" data-state={session.status}>
      {session.status === "signed-out" ? "Iniciar sesión" : "Mi cuenta"}
    </AppLink>
  );
}

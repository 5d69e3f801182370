import { useEffect, useState } from "react";
import { useNavigation } from "react-router";

export const PENDING_DELAY_MS = 200;

/** A thin top bar for navigations and solicitudes slower than 200 ms; fast ones show nothing. */
export function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = window.setTimeout(() => setVisible(true), PENDING_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [busy]);

  return (
    <div
      role="progressbar"
      aria-label="Cargando la página"
      aria-hidden={!visible}
      data-testid="navigation-progress"
      data-visible={visible}
      className={`fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-forja-100 ${visible ? "block" : "hidden"}`}
    >
      <div className="progress-bar h-full w-2/5 bg-forja-600" />
    </div>
  );
}

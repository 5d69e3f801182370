import type { MouseEvent } from "react";
import { useEffect } from "react";
import { useHydrated } from "~/lib/app-shell/use-hydrated";

export const AUTH_POPUP_MESSAGE = "forja:auth-complete";
const POPUP_MAX = { width: 1024, height: 768 };

interface ProviderButtonsProps {
  providers: { id: string; name: string }[];
  redirectTo: string;
}

/**
 * Links to /connect/{provider}. With JavaScript the sign-in opens in a centered popup (at most
 * 1024×768); when the browser blocks popups, the link simply navigates in the page.
 */
export function ProviderButtons({ providers, redirectTo }: ProviderButtonsProps) {
  const hydrated = useHydrated();

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.data?.type !== AUTH_POPUP_MESSAGE) return;
      window.location.assign(typeof event.data.redirectTo === "string" ? event.data.redirectTo : redirectTo);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [redirectTo]);

  if (providers.length === 0) return null;

  function openPopup(event: MouseEvent<HTMLAnchorElement>) {
    if (!hydrated || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const width = Math.min(POPUP_MAX.width, window.screen.availWidth);
    const height = Math.min(POPUP_MAX.height, window.screen.availHeight);
    const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
    const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
    const url = new URL(event.currentTarget.href);
    url.searchParams.set("popup", "1");
    const popup = window.open(url.toString(), "forja-proveedor", `popup=yes,width=${width},height=${height},left=${left},top=${top}`);
    // Blocked popup: the link navigates in this tab instead.
    if (popup) {
      event.preventDefault();
      popup.focus();
    }
  }

  return (
    <div className="space-y-3">
      <p className="text-center text-sm text-acero-600">o continúe con</p>
      {providers.map((provider) => (
        <a
          key={provider.id}
          href={`/connect/${provider.id}?redirectTo=${encodeURIComponent(redirectTo)}`}
          onClick={openPopup}
          className="btn-secondary w-full"
          data-provider={provider.id}
        >
          Continuar con {provider.name}
        </a>
      ))}
    </div>
  );
}

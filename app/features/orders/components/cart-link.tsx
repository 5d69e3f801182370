import { AppLink } from "~/components/ui/app-link";
import { formatUnitQuantity } from "~/lib/units";
import { useCartCount } from "../cart-store";

/** "Carrito" in the cached HTML (it works without JavaScript), then the count once known. */
export function CartLink({ className }: { className: string }) {
  const cart = useCartCount();
  const count = cart.status === "known" ? cart.quantity : null;
  const label = count === null ? "Carrito" : count === 0 ? "Carrito, vacío" : `Carrito, ${formatUnitQuantity(count, "pieza")}`;
  return (
    <AppLink to="/carrito" className={className} aria-label={label} data-testid="cart-link" data-count={count ?? undefined}>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
        <path d="M2 3h2.2l.4 2H17l-1.6 7.2a1.5 1.5 0 0 1-1.5 1.2H7.2a1.5 1.5 0 0 1-1.5-1.2L4 4.6V4H2zm5.5 12.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3m7 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3" />
      </svg>
      <span>Carrito</span>
      {count ? (
        <span aria-hidden="true" className="ml-1 inline-flex min-w-5 items-center justify-center rounded-full bg-forja-600 px-1.5 text-xs font-bold text-white">
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </AppLink>
  );
}

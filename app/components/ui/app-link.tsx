import { Link, NavLink, type LinkProps, type NavLinkProps } from "react-router";

// Every in-app link animates through the "page" view transition (out-in, see app.css).

export function AppLink(props: LinkProps) {
  return <Link viewTransition {...props} />;
}

export function AppNavLink(props: NavLinkProps) {
  return <NavLink viewTransition {...props} />;
}

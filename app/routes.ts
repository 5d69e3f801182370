import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("about", "routes/site/about.tsx"),
    route("contact", "routes/site/contact.tsx"),
    route("cotiza", "routes/cotiza/cotiza.tsx"),
    route("faqs", "routes/site/faqs.tsx"),
    route("catalogo", "routes/catalogo/catalogo.tsx"),
    route("checkout", "routes/checkout/checkout.tsx"),
    route("servicios", "routes/site/servicios.tsx"),
    route("industrias", "routes/site/industrias.tsx"),
    layout("routes/site/industry-layout.tsx", [
      route("industrias-design/:industry", "routes/site/industry.tsx"),
    ]),
    route("login", "routes/cuenta/login.tsx"),
    route("registro", "routes/cuenta/registro.tsx"),
    route("recuperar", "routes/cuenta/recuperar.tsx"),
    route("recuperar/nueva", "routes/cuenta/recuperar-nueva.tsx"),
    route("cuenta", "routes/cuenta/cuenta.tsx"),
    route("cuenta/confirmar", "routes/cuenta/confirmar.tsx"),
    route("salir", "routes/cuenta/salir.tsx"),
    route("connect/:provider", "routes/cuenta/connect.tsx"),
    route("auth/:provider/callback", "routes/cuenta/provider-callback.tsx"),
    route("auth/error", "routes/cuenta/auth-error.tsx"),
    route("auth/listo", "routes/cuenta/auth-listo.tsx"),
    route("quotes", "routes/quotes/layout.tsx", [
      index("routes/quotes/list.tsx"),
      route(":id", "routes/quotes/detail.tsx"),
    ]),
    // Throws on purpose when FORJA_ERROR_ROUTE=1 (browser tests of the 500 page); a 404 otherwise.
    route("__error", "routes/site/error-test.tsx"),
    route(":slug", "routes/site/content-page.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
  route("admin/login", "routes/admin/login.tsx"),
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/dashboard.tsx"),
    route("admin/formularios", "routes/admin/formularios.tsx"),
    route("admin/clientes", "routes/admin/clientes.tsx"),
  ]),
  route("api/health", "routes/api/health.ts"),
  route("api/users/me", "routes/api/users-me.ts"),
  route("api/auth/*", "routes/api/auth.ts"),
  route("sitemap.xml", "routes/api/sitemap.ts"),
  route("robots.txt", "routes/api/robots.ts"),
] satisfies RouteConfig;

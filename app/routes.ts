import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

export default [
  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("about", "routes/site/about.tsx"),
    route("contact", "routes/site/contact.tsx"),
    route("cotiza", "routes/cotiza/cotiza.tsx"),
    route("cotiza/enviada", "routes/cotiza/enviada.tsx"),
    route("contact/enviado", "routes/site/contact-sent.tsx"),
    route("faqs", "routes/site/faqs.tsx"),
    route("catalogo", "routes/catalogo/catalogo.tsx"),
    route("catalogo/:slug", "routes/catalogo/producto.tsx"),
    route("carrito", "routes/checkout/carrito.tsx"),
    route("checkout", "routes/checkout/checkout.tsx"),
    route("checkout/confirmacion/:number", "routes/checkout/confirmacion.tsx"),
    route("servicios", "routes/site/servicios.tsx"),
    route("industrias", "routes/site/industrias.tsx"),
    layout("routes/site/industry-layout.tsx", [
      route("industrias-design/:industry", "routes/site/industry.tsx"),
    ]),
    route("login", "routes/cuenta/login.tsx"),
    route("login/codigo", "routes/cuenta/login-codigo.tsx"),
    route("registro", "routes/cuenta/registro.tsx"),
    route("recuperar", "routes/cuenta/recuperar.tsx"),
    route("recuperar/nueva", "routes/cuenta/recuperar-nueva.tsx"),
    route("cuenta", "routes/cuenta/cuenta.tsx"),
    route("cuenta/confirmar", "routes/cuenta/confirmar.tsx"),
    route("cuenta/confirmar-correo", "routes/cuenta/confirmar-correo.tsx"),
    route("cuenta/pedidos", "routes/cuenta/pedidos.tsx"),
    route("salir", "routes/cuenta/salir.tsx"),
    route("connect/:provider", "routes/cuenta/connect.tsx"),
    route("connect/:provider/redirect", "routes/cuenta/connect-redirect.tsx"),
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
  // A staff invitation's link (docs/decisions/0040): choose a password, then /admin.
  route("admin/bienvenida", "routes/admin/bienvenida.tsx"),
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/dashboard.tsx"),
    route("admin/formularios", "routes/admin/formularios.tsx"),
    route("admin/formularios/exportar.csv", "routes/admin/formularios-csv.ts"),
    route("admin/formularios/:id", "routes/admin/formulario.tsx"),
    route("admin/formularios/:id/archivos/:fileId", "routes/admin/formulario-archivo.ts"),
    route("admin/clientes", "routes/admin/clientes.tsx"),
    route("admin/pedidos", "routes/admin/pedidos.tsx"),
    route("admin/pedidos/:id", "routes/admin/pedido.tsx"),
    route("admin/productos", "routes/admin/productos.tsx"),
    route("admin/productos/:id", "routes/admin/producto.tsx"),
    route("admin/cotizaciones", "routes/admin/cotizaciones.tsx"),
    route("admin/cotizaciones/nueva", "routes/admin/cotizacion-nueva.tsx"),
    route("admin/cotizaciones/:id", "routes/admin/cotizacion.tsx"),
    route("admin/personal", "routes/admin/personal.tsx"),
    route("admin/sistema", "routes/admin/sistema.tsx"),
    route("admin/sistema/respaldos/:key", "routes/admin/sistema-respaldo.ts"),
    // The content editor (docs/decisions/0045): collections, a record's form, its lock and its history.
    route("admin/contenido", "routes/admin/contenido.tsx"),
    // «Editar esta página» on the public site: the record that shows an address (docs/decisions/0049).
    route("admin/contenido/ir", "routes/admin/contenido-ir.tsx"),
    // The 301s are the store's redirects table, not records with drafts: a page of their own.
    route("admin/contenido/redirecciones", "routes/admin/contenido-redirecciones.tsx", { id: "admin-redirecciones" }),
    route("admin/contenido/redirecciones/:id", "routes/admin/contenido-redirecciones.tsx", { id: "admin-redireccion" }),
    route("admin/contenido/:coleccion", "routes/admin/contenido-coleccion.tsx"),
    route("admin/contenido/:coleccion/:id", "routes/admin/contenido-registro.tsx"),
    route("admin/contenido/:coleccion/:id/bloqueo", "routes/admin/contenido-bloqueo.ts"),
    route("admin/contenido/:coleccion/:id/historial", "routes/admin/contenido-historial.tsx"),
    route("admin/medios", "routes/admin/medios.tsx"),
    // The library as JSON for the content editor's image picker (docs/decisions/0050).
    route("admin/medios/biblioteca", "routes/admin/medios-biblioteca.ts"),
  ]),
  // Outside the site layout: a download, not a page.
  route("quotes/:id/pdf", "routes/quotes/pdf.ts"),
  // The live pages' short-lived record-API token for the signed-in browser (docs/decisions/0021).
  route("cuenta/tiempo-real", "routes/cuenta/tiempo-real.ts"),
  // Product photos (WebP variants): public while the product is active, staff only otherwise.
  route("imagenes/productos/:imageId/:file", "routes/catalogo/imagen.ts"),
  // The media library's images (AVIF and WebP variants, crops around the focal point): public.
  route("medios/:id/:variant", "routes/medios-variante.ts"),
  // A product's CAD model: STEP and STL downloads and its technical drawing (docs/decisions/0025).
  route("catalogo/:slug/cad/:fingerprint/:file", "routes/catalogo/modelo.ts"),
  route("api/health", "routes/api/health.ts"),
  route("api/users/me", "routes/api/users-me.ts"),
  route("api/cotiza", "routes/api/cotiza.ts"),
  route("api/carrito", "routes/api/carrito.ts"),
  // The seed's content-service auth API (docs/decisions/0017); better-auth's own endpoints at /api/sesion.
  route("api/auth/*", "routes/api/auth.ts"),
  route("api/sesion/*", "routes/api/auth-sesion.ts"),
  route("api/connect/:provider", "routes/api/strapi-connect.ts", { id: "api-connect-start" }),
  route("api/connect/:provider/listo", "routes/api/strapi-connect.ts", { id: "api-connect-done" }),
  // PocketBase's record API (docs/decisions/0014): one module for the list and a record.
  // The technical settings, superusers only (docs/decisions/0057).
  route("api/settings", "routes/api/settings.ts"),
  route("api/settings/apple/generate-client-secret", "routes/api/settings-apple.ts"),
  route("api/settings/test/email", "routes/api/settings-test-email.ts"),
  route("api/settings/test/s3", "routes/api/settings-test-s3.ts"),
  // The collections' schemas, read-only and superusers only (docs/decisions/0056).
  route("api/collections", "routes/api/collections.ts", { id: "api-collections-list" }),
  route("api/collections/meta/scaffolds", "routes/api/collections.ts", { id: "api-collections-scaffolds" }),
  route("api/collections/import", "routes/api/collections.ts", { id: "api-collections-import" }),
  route("api/collections/:collection", "routes/api/collections.ts", { id: "api-collections-view" }),
  route("api/collections/:collection/truncate", "routes/api/collections.ts", { id: "api-collections-truncate" }),
  route("api/collections/:collection/records", "routes/api/records.ts", { id: "api-records-list" }),
  route("api/collections/:collection/records/:id", "routes/api/records.ts", { id: "api-records-view" }),
  route("api/batch", "routes/api/batch.ts"),
  // Its auth endpoints for `users` (customers) and `_superusers` (staff): one module for the three.
  route("api/collections/:collection/auth-with-password", "routes/api/records-auth.ts", { id: "api-records-auth-password" }),
  route("api/collections/:collection/auth-refresh", "routes/api/records-auth.ts", { id: "api-records-auth-refresh" }),
  route("api/collections/:collection/auth-methods", "routes/api/records-auth.ts", { id: "api-records-auth-methods" }),
  // Impersonation for support, superusers only (docs/decisions/0063), and the banner's «Terminar».
  route("api/collections/:collection/impersonate/:id", "routes/api/records-impersonate.ts"),
  route("vista-cliente/terminar", "routes/admin/vista-cliente-terminar.ts"),
  // Their emailed links and OAuth2 (docs/decisions/0018).
  // One-time codes by email and the second step of staff sign-in (docs/decisions/0061).
  route("api/collections/:collection/request-otp", "routes/api/records-auth-otp.ts", { id: "api-records-request-otp" }),
  route("api/collections/:collection/auth-with-otp", "routes/api/records-auth-otp.ts", { id: "api-records-auth-otp" }),
  route("api/collections/:collection/request-password-reset", "routes/api/records-auth-emails.ts", { id: "api-records-request-password-reset" }),
  route("api/collections/:collection/confirm-password-reset", "routes/api/records-auth-emails.ts", { id: "api-records-confirm-password-reset" }),
  route("api/collections/:collection/request-verification", "routes/api/records-auth-emails.ts", { id: "api-records-request-verification" }),
  route("api/collections/:collection/confirm-verification", "routes/api/records-auth-emails.ts", { id: "api-records-confirm-verification" }),
  // Email change (docs/decisions/0062).
  route("api/collections/:collection/request-email-change", "routes/api/records-email-change.ts", { id: "api-records-request-email-change" }),
  route("api/collections/:collection/confirm-email-change", "routes/api/records-email-change.ts", { id: "api-records-confirm-email-change" }),
  route("api/collections/:collection/auth-with-oauth2", "routes/api/records-auth-oauth2.ts"),
  route("api/oauth2-redirect", "routes/api/oauth2-redirect.ts"),
  // PocketBase's files API (docs/decisions/0016): a record's file, and the short-lived token for protected ones.
  route("api/files/token", "routes/api/files-token.ts"),
  route("api/files/:collection/:recordId/:filename", "routes/api/files.ts"),
  // PocketBase's realtime API: the SSE stream (GET) and its subscriptions (POST).
  route("api/realtime", "routes/api/realtime.ts"),
  // Backups, superusers only (docs/decisions/0055).
  route("api/backups", "routes/api/backups.ts"),
  route("api/backups/upload", "routes/api/backups-upload.ts"),
  route("api/backups/:key", "routes/api/backups-key.ts"),
  route("api/backups/:key/restore", "routes/api/backups-restore.ts"),
  // PocketBase's logs and crons APIs, superusers only (docs/decisions/0051); /api/logs/stats is the logs route's.
  route("api/logs", "routes/api/logs.ts", { id: "api-logs-list" }),
  route("api/logs/:id", "routes/api/logs.ts", { id: "api-logs-view" }),
  route("api/crons", "routes/api/crons.ts", { id: "api-crons-list" }),
  route("api/crons/:id", "routes/api/crons.ts", { id: "api-crons-run" }),
  route("sitemap.xml", "routes/api/sitemap.ts"),
  route("robots.txt", "routes/api/robots.ts"),
] satisfies RouteConfig;

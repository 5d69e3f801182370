-- Change notifications: every statement that writes to a table whose data feeds a cache sends
-- NOTIFY forja_cambios with the cache's topic. Notifications are delivered at commit (never for a
-- rolled-back transaction) and merged per transaction, so a checkout that decrements the stock of
-- five products sends one. See app/db/change-feed.server.ts and docs/decisions/0011.
CREATE FUNCTION "forja_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('forja_cambios', TG_ARGV[0]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "forja_notify_change"('catalogo');--> statement-breakpoint
CREATE TRIGGER "product_images_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_images"
  FOR EACH STATEMENT EXECUTE FUNCTION "forja_notify_change"('catalogo');--> statement-breakpoint
CREATE TRIGGER "submissions_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "submissions"
  FOR EACH STATEMENT EXECUTE FUNCTION "forja_notify_change"('solicitudes');

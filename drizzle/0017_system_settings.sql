CREATE TABLE "system_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Every process keeps the settings in memory while they are unchanged (app/services/settings,
-- docs/decisions/0057): a change tells them all (app/db/change-feed.server.ts, topic 'sistema').
CREATE TRIGGER "system_settings_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "system_settings"
  FOR EACH STATEMENT EXECUTE FUNCTION "forja_notify_change"('sistema');
--> statement-breakpoint
-- Pages that show library images keep them in their HTML (alt text, addresses of the focal crops):
-- a change to an image (alt text, focal point, delete) renders them again (topic 'contenido:medios',
-- docs/decisions/0050, 0053).
CREATE TRIGGER "media_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "media"
  FOR EACH STATEMENT EXECUTE FUNCTION "forja_notify_change"('contenido:medios');

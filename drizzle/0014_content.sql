CREATE TABLE "content_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"collection" text NOT NULL,
	"slug" text,
	"published" jsonb,
	"published_at" timestamp with time zone,
	"published_by" text,
	"published_by_name" text,
	"draft" jsonb,
	"draft_saved_at" timestamp with time zone,
	"draft_saved_by" text,
	"draft_saved_by_name" text,
	"version" integer DEFAULT 1 NOT NULL,
	"scheduled_at" timestamp with time zone,
	"scheduled_by" text,
	"scheduled_by_name" text,
	"schedule_error" text,
	"locked_by" text,
	"locked_by_name" text,
	"locked_at" timestamp with time zone,
	"lock_heartbeat_at" timestamp with time zone,
	"fixed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_entries_version_positive" CHECK ("content_entries"."version" > 0)
);
--> statement-breakpoint
CREATE TABLE "content_seeds" (
	"collection" text PRIMARY KEY NOT NULL,
	"seeded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"data" jsonb NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" text,
	"published_by_name" text NOT NULL,
	"restored_from" integer
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text NOT NULL,
	"original_name" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"focal_x" real DEFAULT 0.5 NOT NULL,
	"focal_y" real DEFAULT 0.5 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_file_name_unique" UNIQUE("file_name"),
	CONSTRAINT "media_focal_x_range" CHECK ("media"."focal_x" >= 0 and "media"."focal_x" <= 1),
	CONSTRAINT "media_focal_y_range" CHECK ("media"."focal_y" >= 0 and "media"."focal_y" <= 1),
	CONSTRAINT "media_size_positive" CHECK ("media"."bytes" > 0 and "media"."width" > 0 and "media"."height" > 0)
);
--> statement-breakpoint
CREATE TABLE "redirects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"from_path" text NOT NULL,
	"to_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redirects_from_path_unique" UNIQUE("from_path"),
	CONSTRAINT "redirects_not_to_itself" CHECK ("redirects"."from_path" <> "redirects"."to_path")
);
--> statement-breakpoint
ALTER TABLE "content_versions" ADD CONSTRAINT "content_versions_entry_id_content_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."content_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_entries_slug_idx" ON "content_entries" USING btree ("collection",lower("slug")) WHERE "content_entries"."slug" is not null;--> statement-breakpoint
CREATE INDEX "content_entries_collection_idx" ON "content_entries" USING btree ("collection","created_at");--> statement-breakpoint
CREATE INDEX "content_entries_scheduled_idx" ON "content_entries" USING btree ("scheduled_at") WHERE "content_entries"."scheduled_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "content_versions_entry_number_idx" ON "content_versions" USING btree ("entry_id","number");--> statement-breakpoint
-- Change notifications for the public content's caches (app/services/content/published.server.ts,
-- docs/decisions/0037): 'contenido' for every cache of content, and 'contenido:<collection>' for a
-- cache of one collection. Only what the public sees counts: a draft save, a schedule or an
-- editing lock's heartbeat changes none of these columns and sends nothing.
CREATE FUNCTION "forja_notify_content"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_collection text := CASE WHEN TG_OP = 'DELETE' THEN OLD.collection ELSE NEW.collection END;
BEGIN
  PERFORM pg_notify('forja_cambios', 'contenido');
  PERFORM pg_notify('forja_cambios', 'contenido:' || changed_collection);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "content_entries_notify_insert" AFTER INSERT ON "content_entries"
  FOR EACH ROW WHEN (NEW.published IS NOT NULL) EXECUTE FUNCTION "forja_notify_content"();--> statement-breakpoint
CREATE TRIGGER "content_entries_notify_update" AFTER UPDATE ON "content_entries"
  FOR EACH ROW WHEN (OLD.published IS DISTINCT FROM NEW.published OR OLD.slug IS DISTINCT FROM NEW.slug
    OR OLD.published_at IS DISTINCT FROM NEW.published_at OR OLD.collection IS DISTINCT FROM NEW.collection)
  EXECUTE FUNCTION "forja_notify_content"();--> statement-breakpoint
CREATE TRIGGER "content_entries_notify_delete" AFTER DELETE ON "content_entries"
  FOR EACH ROW WHEN (OLD.published IS NOT NULL) EXECUTE FUNCTION "forja_notify_content"();--> statement-breakpoint
CREATE TRIGGER "content_entries_notify_truncate" AFTER TRUNCATE ON "content_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "forja_notify_change"('contenido');--> statement-breakpoint
CREATE TRIGGER "redirects_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "redirects"
  FOR EACH STATEMENT EXECUTE FUNCTION "forja_notify_change"('contenido');--> statement-breakpoint
CREATE TRIGGER "redirects_notify_collection" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "redirects"
  FOR EACH STATEMENT EXECUTE FUNCTION "forja_notify_change"('contenido:redirecciones');

CREATE TABLE "deleted_records" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"collection" text NOT NULL,
	"record_id" text NOT NULL,
	"row" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "deleted_records_created_at_idx" ON "deleted_records" USING btree ("created_at");--> statement-breakpoint
-- Record events for the realtime API (app/services/realtime, docs/decisions/0020): every row written
-- to a table behind a record collection sends NOTIFY forja_registros '<collection>:<action>:<id>'
-- when its transaction commits (never for a rollback). A row of a child table (a product's image, a
-- quote's revision, a request's file) sends an update of its parent record. A deleted record's last
-- state is kept in deleted_records and its seq ends the payload, so the view rule can still be
-- checked against it; rows older than an hour go.
CREATE FUNCTION "forja_notify_record"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  collection_name text := TG_ARGV[0];
  id_column text := TG_ARGV[1];
  deleted_seq bigint;
BEGIN
  IF TG_NARGS > 2 AND TG_ARGV[2] = 'parent' THEN
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('forja_registros', collection_name || ':update:' || (to_jsonb(OLD) ->> id_column));
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('forja_registros', collection_name || ':update:' || (to_jsonb(NEW) ->> id_column));
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM "deleted_records" WHERE "created_at" < now() - interval '1 hour';
    INSERT INTO "deleted_records" ("collection", "record_id", "row")
      VALUES (collection_name, to_jsonb(OLD) ->> id_column, to_jsonb(OLD))
      RETURNING "deleted_records"."seq" INTO deleted_seq;
    PERFORM pg_notify('forja_registros', collection_name || ':delete:' || (to_jsonb(OLD) ->> id_column) || ':' || deleted_seq);
  ELSE
    PERFORM pg_notify('forja_registros', collection_name || ':' || CASE TG_OP WHEN 'INSERT' THEN 'create' ELSE 'update' END || ':' || (to_jsonb(NEW) ->> id_column));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_record_event" AFTER INSERT OR UPDATE OR DELETE ON "products"
  FOR EACH ROW EXECUTE FUNCTION "forja_notify_record"('productos', 'id');--> statement-breakpoint
CREATE TRIGGER "product_images_record_event" AFTER INSERT OR UPDATE OR DELETE ON "product_images"
  FOR EACH ROW EXECUTE FUNCTION "forja_notify_record"('productos', 'product_id', 'parent');--> statement-breakpoint
CREATE TRIGGER "solicitudes_record_event" AFTER INSERT OR UPDATE OR DELETE ON "solicitudes"
  FOR EACH ROW EXECUTE FUNCTION "forja_notify_record"('solicitudes', 'id');--> statement-breakpoint
CREATE TRIGGER "solicitud_files_record_event" AFTER INSERT OR UPDATE OR DELETE ON "solicitud_files"
  FOR EACH ROW EXECUTE FUNCTION "forja_notify_record"('solicitudes', 'solicitud_id', 'parent');--> statement-breakpoint
CREATE TRIGGER "quotes_record_event" AFTER INSERT OR UPDATE OR DELETE ON "quotes"
  FOR EACH ROW EXECUTE FUNCTION "forja_notify_record"('cotizaciones', 'id');--> statement-breakpoint
CREATE TRIGGER "quote_revisions_record_event" AFTER INSERT OR UPDATE OR DELETE ON "quote_revisions"
  FOR EACH ROW EXECUTE FUNCTION "forja_notify_record"('cotizaciones', 'quote_id', 'parent');--> statement-breakpoint
CREATE TRIGGER "quote_messages_record_event" AFTER INSERT OR UPDATE OR DELETE ON "quote_messages"
  FOR EACH ROW EXECUTE FUNCTION "forja_notify_record"('mensajes', 'id');--> statement-breakpoint
CREATE TRIGGER "orders_record_event" AFTER INSERT OR UPDATE OR DELETE ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "forja_notify_record"('pedidos', 'id');--> statement-breakpoint
CREATE TRIGGER "user_record_event" AFTER INSERT OR UPDATE OR DELETE ON "user"
  FOR EACH ROW EXECUTE FUNCTION "forja_notify_record"('users', 'id');

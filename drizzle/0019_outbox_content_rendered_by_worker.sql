ALTER TABLE "outbox" ALTER COLUMN "html" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "content" jsonb;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_rendered_or_content" CHECK (("outbox"."html" is not null and "outbox"."text" is not null) or "outbox"."content" is not null);
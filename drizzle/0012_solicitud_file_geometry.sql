ALTER TABLE "solicitud_files" ADD COLUMN "geometry_status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "solicitud_files" ADD COLUMN "geometry" jsonb;--> statement-breakpoint
ALTER TABLE "solicitud_files" ADD COLUMN "geometry_reason" text;--> statement-breakpoint
ALTER TABLE "solicitud_files" ADD COLUMN "geometry_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "solicitud_files" ADD COLUMN "geometry_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "solicitud_files" ADD COLUMN "geometry_computed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "solicitud_files_geometry_pending_idx" ON "solicitud_files" USING btree ("created_at") WHERE geometry_status in ('pending', 'computing');
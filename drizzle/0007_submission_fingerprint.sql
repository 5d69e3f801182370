ALTER TABLE "submissions" ADD COLUMN "fingerprint" text;--> statement-breakpoint
CREATE INDEX "submissions_fingerprint_idx" ON "submissions" USING btree ("fingerprint","created_at" DESC NULLS LAST);
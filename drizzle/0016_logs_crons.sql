CREATE TABLE "cron_runs" (
	"job_id" text PRIMARY KEY NOT NULL,
	"last_slot" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"ok" boolean,
	"error" text,
	"trigger" text
);
--> statement-breakpoint
CREATE TABLE "logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"level" integer DEFAULT 0 NOT NULL,
	"message" text NOT NULL,
	"data" json DEFAULT '{}'::json NOT NULL
);
--> statement-breakpoint
CREATE INDEX "logs_created_idx" ON "logs" USING btree ("created_at");
CREATE TABLE "file_chunks" (
	"path" text NOT NULL,
	"n" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_path_n_pk" PRIMARY KEY("path","n")
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"path" text PRIMARY KEY NOT NULL,
	"size" bigint NOT NULL,
	"chunks" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "file_chunks" ADD CONSTRAINT "file_chunks_path_stored_files_path_fk" FOREIGN KEY ("path") REFERENCES "public"."stored_files"("path") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_files_created_at_idx" ON "stored_files" USING btree ("created_at");--> statement-breakpoint
-- Stored files are mostly compressed already (WebP, PDF, ZIP-based CAD): keep their chunks out of line without trying to compress them again.
ALTER TABLE "file_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
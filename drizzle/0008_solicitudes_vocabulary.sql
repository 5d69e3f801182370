-- One word per concept (docs/decisions/0013): what /cotiza and /contact create is a "solicitud" in
-- the UI, the code and the database. Renames only; no data changes.
ALTER TABLE "submissions" RENAME TO "solicitudes";--> statement-breakpoint
ALTER TABLE "submission_files" RENAME TO "solicitud_files";--> statement-breakpoint
ALTER TABLE "submission_events" RENAME TO "solicitud_events";--> statement-breakpoint
ALTER TABLE "solicitud_files" RENAME COLUMN "submission_id" TO "solicitud_id";--> statement-breakpoint
ALTER TABLE "solicitud_events" RENAME COLUMN "submission_id" TO "solicitud_id";--> statement-breakpoint
ALTER TABLE "quotes" RENAME COLUMN "submission_id" TO "solicitud_id";--> statement-breakpoint
ALTER TABLE "solicitudes" RENAME CONSTRAINT "submissions_pkey" TO "solicitudes_pkey";--> statement-breakpoint
ALTER TABLE "solicitudes" RENAME CONSTRAINT "submissions_number_unique" TO "solicitudes_number_unique";--> statement-breakpoint
ALTER TABLE "solicitudes" RENAME CONSTRAINT "submissions_form_token_unique" TO "solicitudes_form_token_unique";--> statement-breakpoint
ALTER TABLE "solicitudes" RENAME CONSTRAINT "submissions_user_id_user_id_fk" TO "solicitudes_user_id_user_id_fk";--> statement-breakpoint
ALTER TABLE "solicitud_files" RENAME CONSTRAINT "submission_files_pkey" TO "solicitud_files_pkey";--> statement-breakpoint
ALTER TABLE "solicitud_files" RENAME CONSTRAINT "submission_files_storage_path_unique" TO "solicitud_files_storage_path_unique";--> statement-breakpoint
ALTER TABLE "solicitud_files" RENAME CONSTRAINT "submission_files_submission_id_submissions_id_fk" TO "solicitud_files_solicitud_id_solicitudes_id_fk";--> statement-breakpoint
ALTER TABLE "solicitud_events" RENAME CONSTRAINT "submission_events_pkey" TO "solicitud_events_pkey";--> statement-breakpoint
ALTER TABLE "solicitud_events" RENAME CONSTRAINT "submission_events_actor_id_user_id_fk" TO "solicitud_events_actor_id_user_id_fk";--> statement-breakpoint
ALTER TABLE "solicitud_events" RENAME CONSTRAINT "submission_events_submission_id_submissions_id_fk" TO "solicitud_events_solicitud_id_solicitudes_id_fk";--> statement-breakpoint
ALTER TABLE "quotes" RENAME CONSTRAINT "quotes_submission_id_submissions_id_fk" TO "quotes_solicitud_id_solicitudes_id_fk";--> statement-breakpoint
ALTER INDEX "submissions_created_at_idx" RENAME TO "solicitudes_created_at_idx";--> statement-breakpoint
ALTER INDEX "submissions_status_created_idx" RENAME TO "solicitudes_status_created_idx";--> statement-breakpoint
ALTER INDEX "submissions_type_created_idx" RENAME TO "solicitudes_type_created_idx";--> statement-breakpoint
ALTER INDEX "submissions_email_idx" RENAME TO "solicitudes_email_idx";--> statement-breakpoint
ALTER INDEX "submissions_user_idx" RENAME TO "solicitudes_user_idx";--> statement-breakpoint
ALTER INDEX "submissions_fingerprint_idx" RENAME TO "solicitudes_fingerprint_idx";--> statement-breakpoint
ALTER INDEX "submission_files_submission_idx" RENAME TO "solicitud_files_solicitud_idx";--> statement-breakpoint
ALTER INDEX "submission_events_submission_idx" RENAME TO "solicitud_events_solicitud_idx";--> statement-breakpoint
ALTER TRIGGER "submissions_notify_change" ON "solicitudes" RENAME TO "solicitudes_notify_change";

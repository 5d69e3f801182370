ALTER TABLE "quote_revisions" ALTER COLUMN "subtotal_centavos" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "quote_revisions" ALTER COLUMN "iva_centavos" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "quote_revisions" ALTER COLUMN "total_centavos" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "net_centavos" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "iva_centavos" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "subtotal_centavos" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "iva_centavos" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "total_centavos" SET DATA TYPE bigint;
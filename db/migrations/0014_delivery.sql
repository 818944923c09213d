CREATE TABLE "delivery_options" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"fee" integer NOT NULL,
	"min_days" integer NOT NULL,
	"max_days" integer NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"cash_on_delivery" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_options_kind_check" CHECK ("delivery_options"."kind" in ('delivery', 'pickup', 'courier')),
	CONSTRAINT "delivery_options_fee_check" CHECK ("delivery_options"."fee" >= 0),
	CONSTRAINT "delivery_options_days_check" CHECK ("delivery_options"."min_days" >= 0 and "delivery_options"."max_days" >= "delivery_options"."min_days" and "delivery_options"."max_days" <= 60)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_option_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_option" text DEFAULT 'Kampala delivery' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_kind" text DEFAULT 'delivery' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_area" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_landmark" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_phone" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rider_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rider_phone" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_kind_check" CHECK ("orders"."delivery_kind" in ('delivery', 'pickup', 'courier'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('pending', 'processing', 'ready_for_pickup', 'out_for_delivery', 'shipped', 'delivered', 'collected', 'completed', 'cancelled'));--> statement-breakpoint
-- The defaults (issue 23): the spec's Kampala delivery at UGX 5,000, free pickup, upcountry by bus
-- courier without cash on delivery. The owner changes them on the desk.
INSERT INTO "delivery_options" ("id", "kind", "name", "fee", "min_days", "max_days", "details", "cash_on_delivery", "active", "position") VALUES
	('kampala', 'delivery', 'Kampala delivery', 5000, 1, 3, 'By boda to your door anywhere in Kampala.', true, true, 1),
	('pickup', 'pickup', 'Pick up at the boutique', 0, 0, 1, 'At the duuka boutique in Kampala, 9AM-6PM daily. We text you when it is ready.', true, true, 2),
	('upcountry', 'courier', 'Upcountry by bus courier', 15000, 3, 5, 'Sent by bus courier to the town you name; collect it at the courier''s office.', false, true, 3)
ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
-- Every order before this one was delivered in Kampala at the spec's fee.
UPDATE "orders" SET "delivery_option_id" = 'kampala' WHERE "delivery_option_id" IS NULL;

ALTER TABLE "sms_notifications" DROP CONSTRAINT "sms_status_check";--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD COLUMN "kind" text NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_once_per_order_idx" ON "sms_notifications" USING btree ("order_id","recipient_phone","kind") WHERE "sms_notifications"."order_id" is not null;--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD CONSTRAINT "sms_status_check" CHECK ("sms_notifications"."status" in ('pending', 'sending', 'sent', 'failed'));
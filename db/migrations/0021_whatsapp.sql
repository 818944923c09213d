CREATE TABLE "whatsapp_contacts" (
	"phone" text PRIMARY KEY NOT NULL,
	"name" text,
	"last_inbound_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"handed_over_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wamid" text,
	"phone" text NOT NULL,
	"direction" text NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"sent_by" text,
	"by_assistant" boolean DEFAULT false NOT NULL,
	"sms_id" uuid,
	"billable" boolean,
	"pricing_category" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whatsapp_direction_check" CHECK ("whatsapp_messages"."direction" in ('in', 'out')),
	CONSTRAINT "whatsapp_message_status_check" CHECK ("whatsapp_messages"."status" in ('received', 'sending', 'sent', 'delivered', 'read', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "whatsapp_verifications" (
	"user_id" text PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text,
	"expires_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"verified_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_settings" ADD COLUMN "notification_channel" text DEFAULT 'sms' NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD COLUMN "channel" text DEFAULT 'sms' NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD COLUMN "whatsapp_status" text;--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD COLUMN "whatsapp_message_id" text;--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD COLUMN "whatsapp_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD COLUMN "fallback_reason" text;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_sent_by_user_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_sms_id_sms_notifications_id_fk" FOREIGN KEY ("sms_id") REFERENCES "public"."sms_notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_verifications" ADD CONSTRAINT "whatsapp_verifications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_messages_wamid_idx" ON "whatsapp_messages" USING btree ("wamid");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_phone_idx" ON "whatsapp_messages" USING btree ("phone","created_at");--> statement-breakpoint
CREATE INDEX "whatsapp_messages_newest_idx" ON "whatsapp_messages" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_verified_phone_idx" ON "whatsapp_verifications" USING btree ("phone") WHERE "whatsapp_verifications"."verified_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_whatsapp_message_idx" ON "sms_notifications" USING btree ("whatsapp_message_id") WHERE "sms_notifications"."whatsapp_message_id" is not null;--> statement-breakpoint
CREATE INDEX "sms_whatsapp_waiting_idx" ON "sms_notifications" USING btree ("whatsapp_sent_at") WHERE "sms_notifications"."channel" = 'whatsapp' and "sms_notifications"."whatsapp_status" = 'sent';--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_channel_check" CHECK ("user_settings"."notification_channel" in ('sms', 'whatsapp'));--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD CONSTRAINT "sms_channel_check" CHECK ("sms_notifications"."channel" in ('sms', 'whatsapp'));--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD CONSTRAINT "sms_whatsapp_status_check" CHECK ("sms_notifications"."whatsapp_status" in ('sent', 'delivered', 'read', 'failed'));
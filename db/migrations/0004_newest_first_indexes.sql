DROP INDEX "products_newest_idx";--> statement-breakpoint
DROP INDEX "mail_outbox_newest_idx";--> statement-breakpoint
DROP INDEX "mail_outbox_recipient_idx";--> statement-breakpoint
DROP INDEX "chat_user_newest_idx";--> statement-breakpoint
DROP INDEX "sms_order_idx";--> statement-breakpoint
DROP INDEX "sms_newest_idx";--> statement-breakpoint
DROP INDEX "orders_customer_newest_idx";--> statement-breakpoint
CREATE INDEX "products_newest_idx" ON "products" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "mail_outbox_newest_idx" ON "mail_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_recipient_idx" ON "mail_outbox" USING btree ("recipient","created_at");--> statement-breakpoint
CREATE INDEX "chat_user_newest_idx" ON "chat_messages" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_order_idx" ON "sms_notifications" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_newest_idx" ON "sms_notifications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_customer_newest_idx" ON "orders" USING btree ("customer_id","created_at");
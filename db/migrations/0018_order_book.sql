CREATE TABLE "home_slides" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "home_slides_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"position" integer DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"words" text DEFAULT '' NOT NULL,
	"link_label" text DEFAULT 'Shop Now' NOT NULL,
	"link_url" text DEFAULT '/shop' NOT NULL,
	"image_url" text,
	"art" text
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_method_check";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_network_check";--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "image_url" text;--> statement-breakpoint
ALTER TABLE "desk_records" ADD COLUMN "order_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "source" text DEFAULT 'web' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_phone" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_email" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(id::text || ' ' || customer_name || ' ' || coalesce(customer_phone, '') || ' ' || coalesce(delivery_phone, '') || ' ' || coalesce(customer_email, ''))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "desk_records" ADD CONSTRAINT "desk_records_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "desk_records_order_idx" ON "desk_records" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "orders_newest_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_status_newest_idx" ON "orders" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_search_trgm_idx" ON "orders" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_source_check" CHECK ("orders"."source" in ('web', 'phone', 'whatsapp', 'counter'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_method_check" CHECK ("orders"."payment_method" in ('mobile_money', 'card', 'bank_transfer', 'cash_on_delivery', 'cash'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_network_check" CHECK ("payments"."network" in ('mtn', 'airtel', 'pesapal', 'bank_transfer', 'cash_on_delivery', 'cash'));--> statement-breakpoint
-- The orders a shop already has keep what the desk searches and calls: their customer's phone and
-- email as the profile and the account hold them today (a deleted account's orders keep none).
UPDATE "orders" SET "customer_phone" = "profiles"."phone" FROM "profiles" WHERE "profiles"."id" = "orders"."customer_id" AND "orders"."customer_phone" IS NULL;--> statement-breakpoint
UPDATE "orders" SET "customer_email" = "user"."email" FROM "user" WHERE "user"."id" = "orders"."customer_id" AND "orders"."customer_email" IS NULL;--> statement-breakpoint
-- The categories keep the order the shop showed them in (by name) until the desk moves them.
UPDATE "categories" SET "position" = "ranked"."position" FROM (SELECT "id", (row_number() OVER (ORDER BY "name"))::int AS "position" FROM "categories") AS "ranked" WHERE "ranked"."id" = "categories"."id";--> statement-breakpoint
-- The home page keeps the three slides it had in the code, now the desk's to edit.
INSERT INTO "home_slides" ("position", "title", "words", "link_label", "link_url", "art") VALUES
  (1, 'New Collection', 'Kitenge tailoring, soft leather and hand-finished jewellery, new this season.', 'Shop Now', '/shop', '/images/hero/new-collection.svg'),
  (2, 'Premium Quality', 'Natural fibres, careful finishing and cuts made to be worn for years.', 'Explore', '/shop', '/images/hero/premium-quality.svg'),
  (3, 'Limited Edition', 'Small runs from Kampala ateliers. When they are gone, they are gone.', 'Shop Now', '/shop', '/images/hero/limited-edition.svg');

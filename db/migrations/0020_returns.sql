CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid,
	"return_id" uuid,
	"payment_id" uuid,
	"customer_id" text,
	"method" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"reason" text,
	"provider_reference" text,
	"reference" text,
	"actor_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('requested', 'sent', 'succeeded', 'failed')),
	CONSTRAINT "refunds_method_check" CHECK ("refunds"."method" in ('mtn', 'airtel', 'pesapal', 'bank_transfer', 'cash_on_delivery', 'cash', 'store_credit')),
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "return_lines" (
	"return_id" uuid NOT NULL,
	"order_item_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"reason" text NOT NULL,
	"exchange_variant_id" integer,
	"exchange_label" text,
	"condition" text,
	CONSTRAINT "return_lines_return_id_order_item_id_pk" PRIMARY KEY("return_id","order_item_id"),
	CONSTRAINT "return_lines_quantity_check" CHECK ("return_lines"."quantity" > 0),
	CONSTRAINT "return_lines_reason_check" CHECK ("return_lines"."reason" in ('too_small', 'too_big', 'not_as_pictured', 'damaged', 'wrong_item', 'changed_mind')),
	CONSTRAINT "return_lines_condition_check" CHECK ("return_lines"."condition" is null or "return_lines"."condition" in ('resellable', 'damaged'))
);
--> statement-breakpoint
CREATE TABLE "returns" (
	"id" uuid PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"customer_id" text,
	"status" text DEFAULT 'requested' NOT NULL,
	"resolution" text NOT NULL,
	"refund_to" text,
	"note" text DEFAULT '' NOT NULL,
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"amount" bigint NOT NULL,
	"handover" text,
	"pickup_fee" bigint DEFAULT 0 NOT NULL,
	"staff_reason" text,
	"exchange_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "returns_status_check" CHECK ("returns"."status" in ('requested', 'approved', 'received', 'refunded', 'exchanged', 'refused')),
	CONSTRAINT "returns_resolution_check" CHECK ("returns"."resolution" in ('exchange', 'refund')),
	CONSTRAINT "returns_refund_to_check" CHECK ("returns"."refund_to" is null or "returns"."refund_to" in ('original', 'store_credit')),
	CONSTRAINT "returns_handover_check" CHECK ("returns"."handover" is null or "returns"."handover" in ('pickup', 'drop_off')),
	CONSTRAINT "returns_exchange_status_check" CHECK ("returns"."exchange_status" is null or "returns"."exchange_status" in ('preparing', 'out_for_delivery', 'delivered')),
	CONSTRAINT "returns_money_check" CHECK ("returns"."amount" >= 0 and "returns"."pickup_fee" >= 0)
);
--> statement-breakpoint
ALTER TABLE "stock_movements" DROP CONSTRAINT "stock_movements_reason_check";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "returnable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "returned" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_customer_id_user_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_exchange_variant_id_product_variants_id_fk" FOREIGN KEY ("exchange_variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_customer_id_user_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_per_payment_idx" ON "refunds" USING btree ("payment_id") WHERE "refunds"."payment_id" is not null and "refunds"."status" <> 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_per_return_idx" ON "refunds" USING btree ("return_id","method") WHERE "refunds"."return_id" is not null and "refunds"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refunds_reconcilable_idx" ON "refunds" USING btree ("created_at") WHERE "refunds"."status" in ('requested', 'sent');--> statement-breakpoint
CREATE INDEX "return_lines_item_idx" ON "return_lines" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "returns_order_idx" ON "returns" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "returns_customer_newest_idx" ON "returns" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "returns_status_newest_idx" ON "returns" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_reason_check" CHECK ("stock_movements"."reason" in ('sale', 'order-deleted', 'received', 'counted', 'damaged', 'returned', 'saved', 'imported', 'exchange-held', 'exchange-released', 'return-damaged'));--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_returned_check" CHECK ("order_items"."returned" >= 0 and "order_items"."returned" <= "order_items"."quantity");--> statement-breakpoint
-- The windows count from delivery or collection (decision 0086): set once, on any path that moves
-- an order there (the desk, the counter's order placed as collected, a script).
CREATE FUNCTION orders_delivered_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" IN ('delivered', 'collected', 'completed') AND NEW."delivered_at" IS NULL THEN
    NEW."delivered_at" := now();
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_delivered_at BEFORE INSERT OR UPDATE OF "status" ON "orders"
  FOR EACH ROW EXECUTE FUNCTION orders_delivered_at();--> statement-breakpoint
-- Orders delivered before this migration: when the desk recorded the move, else when placed.
UPDATE "orders" o SET "delivered_at" = coalesce(
  (SELECT min(r."created_at") FROM "desk_records" r
    WHERE r."order_id" = o."id" AND r."action" = 'order.status'
      AND r."details"->>'to' IN ('delivered', 'collected', 'completed')),
  o."created_at")
  WHERE o."status" IN ('delivered', 'collected', 'completed');--> statement-breakpoint
-- Refunds the desk recorded by hand before this migration are refunds too (their credit notes).
INSERT INTO "refunds" ("order_id", "payment_id", "customer_id", "method", "amount", "status",
    "reference", "actor_email", "created_at", "sent_at", "settled_at")
  SELECT p."order_id", p."id", p."customer_id", p."network", p."amount", 'succeeded',
    p."refund_reference", u."email", coalesce(p."refunded_at", p."created_at"),
    coalesce(p."refunded_at", p."created_at"), coalesce(p."refunded_at", p."created_at")
  FROM "payments" p LEFT JOIN "user" u ON u."id" = p."confirmed_by"
  WHERE p."status" = 'refunded';

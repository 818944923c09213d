CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"promotion_id" integer,
	"message" text NOT NULL,
	"audience" jsonb NOT NULL,
	"recipients" integer NOT NULL,
	"cost" bigint NOT NULL,
	"actor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cart_reminders" (
	"user_id" text PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_offers" (
	"order_id" uuid NOT NULL,
	"promotion_id" integer NOT NULL,
	"code" text,
	"name" text NOT NULL,
	"amount" bigint NOT NULL,
	"shopper" text,
	"use_number" integer,
	"counted" boolean DEFAULT true NOT NULL,
	CONSTRAINT "order_offers_order_id_promotion_id_pk" PRIMARY KEY("order_id","promotion_id"),
	CONSTRAINT "order_offers_amount_check" CHECK ("order_offers"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"kind" text NOT NULL,
	"value" integer DEFAULT 0 NOT NULL,
	"category_ids" integer[],
	"product_ids" integer[],
	"min_subtotal" bigint,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"usage_limit" integer,
	"used" integer DEFAULT 0 NOT NULL,
	"per_shopper_limit" integer,
	"first_order_only" boolean DEFAULT false NOT NULL,
	"combinable" boolean DEFAULT false NOT NULL,
	"buy_quantity" integer,
	"get_quantity" integer,
	"tag" text,
	"active" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotions_kind_check" CHECK ("promotions"."kind" in ('percent', 'fixed', 'free_delivery', 'buy_x_get_y')),
	CONSTRAINT "promotions_value_check" CHECK ("promotions"."value" >= 0 and ("promotions"."kind" not in ('percent', 'buy_x_get_y') or "promotions"."value" <= 100)),
	CONSTRAINT "promotions_usage_check" CHECK ("promotions"."used" >= 0 and ("promotions"."usage_limit" is null or "promotions"."used" <= "promotions"."usage_limit"))
);
--> statement-breakpoint
CREATE TABLE "value_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" text,
	"code_hash" text,
	"code_last4" text,
	"recipient_name" text,
	"recipient_phone" text,
	"message" text,
	"order_id" uuid,
	"amount" bigint,
	"issued_at" timestamp with time zone,
	"balance" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "value_accounts_kind_check" CHECK ("value_accounts"."kind" in ('gift_card', 'store_credit')),
	CONSTRAINT "value_accounts_balance_check" CHECK ("value_accounts"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "value_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "value_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"order_id" uuid,
	"actor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "value_entries_reason_check" CHECK ("value_entries"."reason" in ('issued', 'granted', 'refund', 'spent', 'given_back')),
	CONSTRAINT "value_entries_amount_check" CHECK ("value_entries"."amount" <> 0 and "value_entries"."balance_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_money_check";--> statement-breakpoint
ALTER TABLE "user_settings" ADD COLUMN "stop_token" text;--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD COLUMN "campaign_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_reminders" ADD CONSTRAINT "cart_reminders_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_offers" ADD CONSTRAINT "order_offers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_offers" ADD CONSTRAINT "order_offers_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "value_accounts" ADD CONSTRAINT "value_accounts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "value_accounts" ADD CONSTRAINT "value_accounts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "value_entries" ADD CONSTRAINT "value_entries_account_id_value_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."value_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_offers_shopper_use_idx" ON "order_offers" USING btree ("promotion_id","shopper","use_number") WHERE "order_offers"."counted" and "order_offers"."use_number" is not null;--> statement-breakpoint
CREATE INDEX "order_offers_promotion_idx" ON "order_offers" USING btree ("promotion_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotions_code_idx" ON "promotions" USING btree (lower("code")) WHERE "promotions"."code" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "value_accounts_code_idx" ON "value_accounts" USING btree ("code_hash") WHERE "value_accounts"."code_hash" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "value_accounts_credit_idx" ON "value_accounts" USING btree ("user_id") WHERE "value_accounts"."kind" = 'store_credit';--> statement-breakpoint
CREATE INDEX "value_accounts_order_idx" ON "value_accounts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "value_entries_account_idx" ON "value_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "value_entries_order_idx" ON "value_entries" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "sms_notifications" ADD CONSTRAINT "sms_notifications_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_once_per_campaign_idx" ON "sms_notifications" USING btree ("campaign_id","recipient_phone") WHERE "sms_notifications"."campaign_id" is not null;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_stop_token_unique" UNIQUE("stop_token");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_money_check" CHECK ("orders"."subtotal" >= 0 and "orders"."delivery_fee" >= 0 and "orders"."discount" >= 0 and "orders"."credit" >= 0 and "orders"."total" >= 0);--> statement-breakpoint
-- The ledger is append-only (decision 0081): an entry is never changed or removed.
CREATE FUNCTION value_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'value_entries is append-only' USING ERRCODE = 'restrict_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER value_entries_append_only BEFORE UPDATE OR DELETE ON "value_entries"
  FOR EACH ROW EXECUTE FUNCTION value_entries_append_only();--> statement-breakpoint
-- An order cancelled or deleted gives back what it took beside stock (decision 0081): its offers'
-- uses (the shopper's slot with them) and the gift card or credit it spent, as a new entry. Once:
-- a cancelled order deleted later has nothing left to give.
CREATE FUNCTION order_gives_back(released uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  spent record;
  after bigint;
BEGIN
  UPDATE "promotions" p SET "used" = p."used" - 1
    FROM "order_offers" oo
    WHERE oo."order_id" = released AND oo."counted" AND p."id" = oo."promotion_id";
  UPDATE "order_offers" SET "counted" = false WHERE "order_id" = released AND "counted";
  FOR spent IN
    SELECT "account_id", -sum("amount") AS owed FROM "value_entries"
    WHERE "order_id" = released AND "reason" IN ('spent', 'given_back')
    GROUP BY "account_id" HAVING sum("amount") < 0
  LOOP
    UPDATE "value_accounts" SET "balance" = "balance" + spent.owed
      WHERE "id" = spent."account_id" RETURNING "balance" INTO after;
    INSERT INTO "value_entries" ("account_id", "amount", "balance_after", "reason", "order_id")
      VALUES (spent."account_id", spent.owed, after, 'given_back', released);
  END LOOP;
END $$;--> statement-breakpoint
CREATE FUNCTION orders_give_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM order_gives_back(OLD."id");
    RETURN OLD;
  END IF;
  PERFORM order_gives_back(NEW."id");
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER orders_cancelled_give_back AFTER UPDATE OF "status" ON "orders"
  FOR EACH ROW WHEN (NEW."status" = 'cancelled' AND OLD."status" <> 'cancelled')
  EXECUTE FUNCTION orders_give_back();--> statement-breakpoint
CREATE TRIGGER orders_deleted_give_back BEFORE DELETE ON "orders"
  FOR EACH ROW EXECUTE FUNCTION orders_give_back();--> statement-breakpoint
-- The spec's welcome text promises KARIBU10, 10% off the first order: now it is real.
INSERT INTO "promotions" ("name", "code", "kind", "value", "per_shopper_limit", "first_order_only")
  VALUES ('Welcome: 10% off your first order', 'KARIBU10', 'percent', 10, 1, true);

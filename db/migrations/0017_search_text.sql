-- Search that understands a shopper (issue 32): a word may be in the name, the description or an
-- option value (a size, a colour). Postgres keeps that text lower-cased in one column, searched through
-- one trigram index, which takes over from the description's (nothing else searched it).
DROP INDEX "products_description_trgm_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(product_name || ' ' || coalesce(description, '') || ' ' || jsonb_path_query_array(options, '$[*].values[*]')::text)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "products_search_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops);
-- Finding the right piece (issue 21): each variant's size and colour as columns Postgres keeps from
-- options, indexed in product order with the stock, so the listing's filtered counts read indexes only.
ALTER TABLE "product_variants" ADD COLUMN "size" text GENERATED ALWAYS AS ((options->>'Size')) STORED;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "colour" text GENERATED ALWAYS AS ((options->>'Colour')) STORED;--> statement-breakpoint
CREATE INDEX "product_variants_size_idx" ON "product_variants" USING btree ("size","product_id","stock");--> statement-breakpoint
CREATE INDEX "product_variants_colour_idx" ON "product_variants" USING btree ("colour","product_id","stock");
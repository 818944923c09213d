-- Finding the right piece (issue 21): the listing's size and colour filters read options->>'Size' and
-- options->>'Colour' through these, in product order with the stock beside them.
CREATE INDEX "product_variants_size_idx" ON "product_variants" USING btree (("options"->>'Size'),"product_id","stock");--> statement-breakpoint
CREATE INDEX "product_variants_colour_idx" ON "product_variants" USING btree (("options"->>'Colour'),"product_id","stock");
-- Search that does not grow with the catalogue (issue 38). A size and a colour filtered together
-- (size 38 in Ochre) read the few variants having both from one index instead of walking the newest
-- pieces to find them; the pieces on sale, by id and by price, are read from an index alone, so a
-- listing's capped count and its facets' pieces check "on sale" without reading each product.
CREATE INDEX "product_variants_size_colour_idx" ON "product_variants" USING btree ("size","colour","product_id","stock");--> statement-breakpoint
CREATE INDEX "products_on_sale_idx" ON "products" USING btree ("id") WHERE status = 'published';--> statement-breakpoint
CREATE INDEX "products_on_sale_price_idx" ON "products" USING btree ("price","id") WHERE status = 'published';
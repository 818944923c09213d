ALTER TABLE "product_images" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "product_images" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_size_check" CHECK (("product_images"."width" is null and "product_images"."height" is null) or
          ("product_images"."width" is not null and "product_images"."height" is not null and "product_images"."width" > 0 and "product_images"."height" > 0));
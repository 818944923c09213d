// A placeholder: the product's photos panel is built on branch desk-photos, whose version of this
// file the lead takes at merge. The editor (app/routes/operator/products/$productId.tsx) shows it
// below the form of a saved product.
export function ProductPhotos({ productId }: { productId: number }) {
  void productId;
  return null;
}

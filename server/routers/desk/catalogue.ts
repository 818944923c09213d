// The catalogue: desk.products, desk.product, desk.saveProduct (drafts, publishing, archiving).
export const catalogueDesk = {};

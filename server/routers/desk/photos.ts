// Pictures: desk.setPhotos (order, alt text, colour); uploads are POST /api/desk/products/{id}/photos.
export const photosDesk = {};

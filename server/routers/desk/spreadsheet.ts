// The catalogue as a spreadsheet: desk.importProducts (the export is GET /api/desk/products.csv).
export const spreadsheetDesk = {};

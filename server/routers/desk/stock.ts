// Stock: desk.adjustStock, desk.stockLog, desk.lowStock.
export const stockDesk = {};

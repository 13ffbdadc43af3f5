export type { Cost, Price, Prices } from "./price.js";
export { addCost, costOf, formatCost, priceOf, UNKNOWN_COST, ZERO_COST } from "./price.js";
export { catalogEntry, type CatalogEntry } from "./catalog.js";

import { decimalToCents } from "@ticketing/shared/money";

/** Price typed in CHF (`45.00`, `45,5`, `45`) → cents; null when it is not such an amount. */
export const priceToCents = (value: unknown): number | null =>
  typeof value === "string" ? decimalToCents(value) : null;

export const validatePrice = (value: unknown) =>
  value === undefined || value === "" || priceToCents(value) !== null ? undefined : "admin.validation.price";

/** Stock typed as a whole number ≥ 0. */
export const parseStock = (value: unknown): number | null =>
  typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : null;

export const validateStock = (value: unknown) =>
  value === undefined || value === "" || parseStock(value) !== null ? undefined : "admin.validation.stock";

import { describe, expect, it } from "vitest";
import { parseStock, priceToCents, validatePrice, validateStock } from "./articleInput.ts";

describe("article inputs", () => {
  it("reads a CHF price into integer cents", () => {
    expect(priceToCents("45.00")).toBe(4500);
    expect(priceToCents("45,5")).toBe(4550);
    expect(priceToCents("0")).toBe(0);
    expect(validatePrice("12.345")).toBe("admin.validation.price");
    expect(validatePrice("-1")).toBe("admin.validation.price");
    expect(validatePrice("12.34")).toBeUndefined();
  });

  it("reads a stock as a whole number of 0 or more", () => {
    expect(parseStock("100")).toBe(100);
    expect(parseStock("0")).toBe(0);
    expect(validateStock("1.5")).toBe("admin.validation.stock");
    expect(validateStock("-3")).toBe("admin.validation.stock");
  });
});

export * from "./constants.ts";
export * from "./money.ts";

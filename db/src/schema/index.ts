export * from "./users-units.ts";
export * from "./events.ts";
export * from "./catalogue.ts";
export * from "./baskets.ts";
export * from "./payments.ts";
export * from "./mail.ts";

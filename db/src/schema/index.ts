export * from "./baskets.ts";
export * from "./catalogue.ts";
export * from "./check-ins.ts";
export * from "./events.ts";
export * from "./instance.ts";
export * from "./mail.ts";
export * from "./payments.ts";
export * from "./users-units.ts";

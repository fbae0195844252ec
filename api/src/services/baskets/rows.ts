// A basket's row and its buyer's login row, as the services pass them around: named here, importing nothing, so a
// file that only needs the types does not depend on what baskets.ts reaches (README.md).
import type { schema } from "@ticketing/db";

export type Basket = typeof schema.baskets.$inferSelect;
export type FrontendLogin = typeof schema.frontendLogins.$inferSelect;

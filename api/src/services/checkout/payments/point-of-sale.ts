// The `point_of_sale` module: the buyer pays on site with the basket's reference, staff mark the invoice paid,
// and a refund is money handed back in cash, recorded as such (docs/design.md §4 "Payments").
import type { PaymentModule } from "./module.ts";

export const pointOfSaleModule: PaymentModule = {
  key: "point_of_sale",
  isReady: async (_deps, event) => event.isPointOfSaleEnabled,
  start: async () => ({ hostedUrl: null }),
  refund: async () => ({ pspRefundId: null }),
  cancel: async () => {},
};

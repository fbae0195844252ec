// What a payment module is (docs/design.md §4 "Payments"): the checkout, the refunds and the expiry of unpaid payments
// know only this interface; `demo`, `point_of_sale` and `stripe` implement it.
import type { Database, schema } from "@ticketing/db";
import type { Language, PaymentModule as PaymentModuleKey } from "@ticketing/shared/constants";
import type { Config } from "../../../env.ts";
import type { Logger } from "../../../lib/log.ts";
import type { Event } from "../../accounts/access.ts";
import type { Basket } from "../../baskets/baskets.ts";
import type { Invoice } from "../../invoices/invoice-writing.ts";

export type PaymentIntent = typeof schema.paymentIntents.$inferSelect;

export interface PaymentDeps {
  database: Database;
  config: Pick<Config, "publicUrl" | "secretKey" | "stripeApi">;
  /** Told when a mail was queued, so the worker sends it now rather than at its next round. */
  onMailQueued?: () => void;
  /** The process's logger (lib/log.ts) unless given: during a request, the request's. */
  logger?: Logger;
}

export interface PaymentToStart {
  intent: PaymentIntent;
  invoice: Invoice;
  basket: Basket;
  event: Event;
  /** The buyer's billing address, which the provider's page may fill in. */
  email: string;
  language: Language;
  /**
   * The origin the buyer's browser is on (context.ts `visitOrigin`): the provider's page and its way back to the
   * ticket office are addressed there, where the buyer's session cookie is (docs/decisions/0030).
   */
  siteUrl: string;
  now: Date;
}

export interface StartedPayment {
  /** The provider's id of the payment (Stripe's Checkout Session `cs_…`); the intent keeps its own when absent. */
  pspId?: string;
  /** The provider's page where the buyer pays; null when the buyer pays elsewhere (a point of sale). */
  hostedUrl: string | null;
}

export interface RefundToMake {
  /** The intent that took the money. */
  intent: PaymentIntent;
  /** The negative invoice being paid back; its id is the provider's idempotency key. */
  refundInvoice: Invoice;
  /** cents, positive */
  amount: number;
  event: Event;
}

/** The provider refused or could not be reached: nothing was paid back. */
export class PaymentProviderError extends Error {}

export interface PaymentModule {
  key: PaymentModuleKey;
  /** Whether the event can take payments through this module now (Stripe: the unit's account is set). */
  isReady(deps: PaymentDeps, event: Event): Promise<boolean>;
  /** Opens the payment of an invoice at the provider. Throws PaymentProviderError when it cannot. */
  start(deps: PaymentDeps, payment: PaymentToStart): Promise<StartedPayment>;
  /** Pays money back; answers the provider's refund id (null when nothing left the product: cash, demo). */
  refund(deps: PaymentDeps, refund: RefundToMake): Promise<{ pspRefundId: string | null }>;
  /** Cancels an ongoing payment at the provider. Throws PaymentProviderError when it was paid meanwhile. */
  cancel(deps: PaymentDeps, payment: { intent: PaymentIntent; event: Event }): Promise<void>;
}

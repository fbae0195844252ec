// Cancelling an event (docs/decisions/0047-cancelling-an-event.md): the organiser's request, and the progress of the
// refunds it starts.
import { z } from "zod";
import {
  CANCELLATION_BASKET_STATES,
  CANCELLATION_REFUND_WAYS,
  MAX_CANCELLATION_MESSAGE_LENGTH,
  PAYMENT_MODULES,
} from "../constants.ts";
import { Id, IsoDate } from "./common.ts";

const message = z.string().trim().min(1).max(MAX_CANCELLATION_MESSAGE_LENGTH);

/** `POST /events/:id/cancellation`: the message buyers read in the ticket office and in their mail, per language. */
export const EventCancellationRequest = z.strictObject({
  message: message,
  messageFr: message,
});
export type EventCancellationRequest = z.output<typeof EventCancellationRequest>;

/** One paid order of the cancellation, and where its refund stands. */
export const CancellationBasket = z.object({
  basketId: Id,
  reference: z.string(),
  buyer: z.string(),
  email: z.string().nullable(),
  /** cents, what is refunded */
  amount: z.number().int(),
  /** The module that took the money; null for a free order. */
  module: z.enum(PAYMENT_MODULES).nullable(),
  way: z.enum(CANCELLATION_REFUND_WAYS),
  state: z.enum(CANCELLATION_BASKET_STATES),
  error: z.string().nullable(),
  attempts: z.number().int(),
});
export type CancellationBasket = z.infer<typeof CancellationBasket>;

/**
 * `GET /events/:id/cancellation`: before a cancellation, what it would do (`isCancelled` false: the paid orders it
 * would refund, and how many by hand); after, where its refunds stand.
 */
export const EventCancellation = z.object({
  eventId: Id,
  isCancelled: z.boolean(),
  message: z.string().nullable(),
  messageFr: z.string().nullable(),
  cancelledAt: IsoDate.nullable(),
  /** Paid orders refunded through their payment module (Stripe, demo, free orders). */
  ordersToRefund: z.number().int(),
  /** Paid orders paid at a point of sale: the organiser pays them back and marks them. */
  toRefundByHand: z.number().int(),
  refunded: z.number().int(),
  refundedByHand: z.number().int(),
  failed: z.number().int(),
  /** Not done yet: waiting for the worker, or with the provider now. */
  inProgress: z.number().int(),
  /** cents: total paid back so far (by hand included) */
  refundedAmount: z.number().int(),
  mailsQueued: z.number().int(),
  /** Whether every refund the worker can make is made (what is left is by hand or failed). */
  isDone: z.boolean(),
  baskets: z.array(CancellationBasket),
});
export type EventCancellation = z.infer<typeof EventCancellation>;

// The ticket office's requests (`/frontend/…`, the ticket check): what a buyer sends, camelCase. What the API
// answers is in ticket-office.ts.
import { z } from "zod";
import { MAX_ITEMS_PER_BASKET, PAYMENT_METHODS } from "../constants.ts";
import { zBooleanFlag, zId } from "./common.ts";

/**
 * An id under its name or its older short one (`event_id` or `event`): missing both is zod's own "required"
 * issue on the name (`event_id: Required`), raised only when nothing else is wrong with the input.
 */
function eitherName(ctx: z.RefinementCtx, name: string, id: number | undefined): number {
  if (id === undefined && ctx.issues.length === 0)
    ctx.addIssue({ code: "invalid_type", expected: "number", input: undefined, path: [name] });
  return id as number;
}

export const VisitorTreeQuery = z.object({ basketId: zId.optional(), testing: zBooleanFlag.optional() });
export type VisitorTreeQuery = z.output<typeof VisitorTreeQuery>;

export const BasketListQuery = z.object({
  eventId: zId.optional(),
  event: zId.optional(),
  testing: zBooleanFlag.optional(),
});
export type BasketListQuery = z.output<typeof BasketListQuery>;

/** A new basket for the caller's login to the event (`created_by_id` is accepted and ignored: the login decides). */
export const BasketCreate = z
  .strictObject({
    eventId: zId.optional(),
    event: zId.optional(),
    testing: zBooleanFlag.default(false),
    createdById: zId.optional(),
  })
  .transform(({ eventId, event, testing }, ctx) => ({
    eventId: eitherName(ctx, "eventId", eventId ?? event),
    testing,
  }));
export type BasketCreate = z.output<typeof BasketCreate>;

/** A query naming one of the caller's baskets. */
export const BasketQuery = z.object({ basketId: zId });
export type BasketQuery = z.output<typeof BasketQuery>;

/** `basket_id`, or `basket`. */
export const PromotionCodeListQuery = z
  .object({ basketId: zId.optional(), basket: zId.optional() })
  .transform(({ basketId, basket }, ctx) => ({ basketId: eitherName(ctx, "basketId", basketId ?? basket) }));
export type PromotionCodeListQuery = z.output<typeof PromotionCodeListQuery>;

export const SelectedNodeCreate = z.strictObject({
  basketId: zId,
  nodeId: zId,
  optionNodeIds: z.array(zId).max(100).default([]),
  /** How many identical lines (same article, same options) to add at once: all of them or none. */
  quantity: z.number().int().min(1).max(MAX_ITEMS_PER_BASKET).default(1),
});
export type SelectedNodeCreate = z.output<typeof SelectedNodeCreate>;

/**
 * `POST /frontend/selected-nodes`: `SelectedNodeCreate`, or, instead of `basketId`, the event (`eventId`, with
 * `testing` for the testing mode): the article goes into the caller's newest open basket on it, opened when there is
 * none. With `basketId`, `eventId` and `testing` are refused as unknown keys (a basket has its own event and mode),
 * as they always were; with neither, `basket_id` is required, as it always was.
 */
export const SelectedNodeAdd = SelectedNodeCreate.extend({
  basketId: zId.optional(),
  eventId: zId.optional(),
  testing: zBooleanFlag.optional(),
}).transform(({ basketId, eventId, testing, ...line }, ctx) => {
  if (basketId === undefined && eventId !== undefined)
    return { ...line, basketId: undefined, eventId, testing: testing ?? false };
  const extra = [eventId !== undefined && "eventId", testing !== undefined && "testing"].filter((key) => key !== false);
  if (extra.length) ctx.addIssue({ code: "unrecognized_keys", keys: extra, input: undefined });
  return { ...line, basketId: eitherName(ctx, "basketId", basketId), eventId: undefined };
});
export type SelectedNodeAdd = z.output<typeof SelectedNodeAdd>;

export const SelectedPromotionCodeCreate = z.strictObject({
  basketId: zId,
  value: z.string().trim().min(1).max(100),
});
export type SelectedPromotionCodeCreate = z.output<typeof SelectedPromotionCodeCreate>;

const filled = (max: number) => z.string().trim().min(1).max(max);

export const BillingInformationCreate = z.strictObject({
  basketId: zId,
  firstName: filled(100),
  lastName: filled(100),
  email: z.email().max(254),
  address: filled(300),
  postalCode: filled(20),
  city: filled(100),
  country: filled(100),
});
export type BillingInformationCreate = z.output<typeof BillingInformationCreate>;

export const CheckoutRequest = z.strictObject({ paymentMethod: z.enum(PAYMENT_METHODS), termsAccepted: zBooleanFlag });
export type CheckoutRequest = z.output<typeof CheckoutRequest>;

/** The answers to one article's forms: every field of its groups, each answer replacing the one given before. */
export const ExtraInfoAnswers = z.strictObject({
  answers: z.array(z.strictObject({ extraInfoId: zId, value: z.string().max(10_000).nullable() })).max(500),
});
export type ExtraInfoAnswers = z.output<typeof ExtraInfoAnswers>;

export const TicketCodeQuery = z.object({ code: z.string().min(1).max(2_000) });
export type TicketCodeQuery = z.output<typeof TicketCodeQuery>;

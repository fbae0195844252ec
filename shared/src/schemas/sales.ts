// Back-office sales: the baskets of the events a user may see, and the point of sale's "mark paid"
// (docs/design.md §4 "Payments").
import { z } from "zod";
import {
  ARTICLE_STATUSES,
  BASKET_STATUSES,
  EXPORT_FORMATS,
  LANGUAGES,
  MAIL_KINDS,
  MAIL_STATUSES,
} from "../constants.ts";
import { Cents, Id, IsoDate, zBooleanFlag, zId } from "./common.ts";
import { BasketItem, Invoice, BasketDetail as TicketOfficeBasketDetail } from "./ticket-office.ts";

/**
 * The back office sees a basket as the ticket office does (one presenter, services/basket-views.ts): `Basket` in
 * the list; on its page, `BasketDetail` with its promotion codes and payments, and what staff need to refund it.
 */
export { Basket } from "./ticket-office.ts";

/** One answer of an article's forms, with the group's and the field's names and type as they were when answered. */
export const ItemAnswer = z.object({
  group: z.string(),
  name: z.string(),
  type: z.string(),
  value: z.string().nullable(),
});
export type ItemAnswer = z.infer<typeof ItemAnswer>;

/** The form answers of one article of the basket (held or refunded), in the order of its forms. */
export const ItemAnswers = z.object({ itemId: Id, answers: z.array(ItemAnswer) });
export type ItemAnswers = z.infer<typeof ItemAnswers>;

/** A mail sent (or queued) about a basket: its confirmation, reminders, expiry, refunds. */
export const BasketMail = z.object({
  id: Id,
  kind: z.enum(MAIL_KINDS),
  to: z.string(),
  status: z.enum(MAIL_STATUSES),
  /** Set once rendered for delivery. */
  subject: z.string().nullable(),
  createdAt: IsoDate,
  sentAt: IsoDate.nullable(),
});
export type BasketMail = z.infer<typeof BasketMail>;

/** An article of the basket (with its options) and where it stands, as the API decides it (`ARTICLE_STATUSES`). */
export const BasketArticle = BasketItem.extend({ status: z.enum(ARTICLE_STATUSES) });
export type BasketArticle = z.infer<typeof BasketArticle>;

/**
 * `GET /baskets/:id`: the ticket office's detail (`items` are the articles still held), with the articles refunded
 * and the money: what the basket's paid invoices took and what its refunds gave back (or are giving back).
 */
export const BasketDetail = TicketOfficeBasketDetail.extend({
  /** Articles (with their options) given back by a refund: their tickets no longer admit. */
  refundedItems: z.array(BasketItem),
  /**
   * Every article of the basket, held, expired or refunded, in the order they were chosen, each with its status
   * read with the basket's: what staff see in the basket's page.
   */
  articles: z.array(BasketArticle),
  /** cents: the paid invoices' total */
  paidAmount: Cents,
  /** cents, positive: the refunds written and not cancelled */
  refundedAmount: Cents,
  /** The form answers of its articles (held and refunded), articles without forms left out. */
  answers: z.array(ItemAnswers),
  /** The mails about it, newest first. */
  mails: z.array(BasketMail),
});
export type BasketDetail = z.infer<typeof BasketDetail>;

/**
 * `POST /baskets/:id/refunds`: the whole basket (no `itemIds`) or chosen articles (their options go with them),
 * with the reason staff give.
 */
export const RefundRequest = z.strictObject({
  itemIds: z
    .array(zId)
    .min(1)
    .max(1000)
    .refine((ids) => new Set(ids).size === ids.length, { error: "errors.refund_items_repeated" })
    .optional(),
  reason: z.string().trim().min(1).max(500),
});
export type RefundRequest = z.output<typeof RefundRequest>;

/** What a refund did: its credit note (a negative invoice related to the one paid), the amount, the basket's status. */
export const RefundMade = z.object({
  invoice: Invoice,
  /** cents, positive: what was paid back */
  amount: Cents,
  basketStatus: z.enum(BASKET_STATUSES),
});
export type RefundMade = z.infer<typeof RefundMade>;

/** What marking an invoice paid did: `changed` is false when it was already paid. */
export const InvoicePaid = z.object({
  invoiceId: Id,
  changed: z.boolean(),
  basketStatus: z.enum(BASKET_STATUSES),
});
export type InvoicePaid = z.infer<typeof InvoicePaid>;

/**
 * `GET /baskets` filters beside `event_id`, `status`, `id`: `q` searches the reference, the buyer's names and
 * email; `created_from` / `created_to` bound the creation date (ISO dates or moments, inclusive); `preview=true`
 * lists testing baskets instead of real ones.
 */
export const BasketListFilter = z.object({
  q: z.string().max(200).optional(),
  createdFrom: z.string().optional(),
  createdTo: z.string().optional(),
  preview: zBooleanFlag.optional(),
});

/** `preview=true` shows testing (preview) sales only, instead of real ones (docs/specification.md §2.2). */
export const PreviewQuery = z.strictObject({ preview: zBooleanFlag.default(false) });
export type PreviewQuery = z.output<typeof PreviewQuery>;

/**
 * One row of the stocks table (`GET /events/:id/stocks`, docs/specification.md §3): an article of the event's tree. The
 * counts are of that article's lines by their basket's status; `total`, `reserved` and `remaining` are its stock's,
 * read from the counters the sale moves (the tightest of its stocks, as the ticket office shows it; null when
 * unlimited). A stock shared by several articles counts them all in `reserved`.
 */
export const StockRow = z.object({
  /** the article's node id */
  id: Id,
  title: z.string(),
  /** the titles of its ancestors from the root, joined with " / " */
  rootPath: z.string(),
  /** the stock's maximum */
  total: z.number().int().nullable(),
  /** held in baskets being filled (not yet released) */
  new: z.number().int(),
  paymentInProgress: z.number().int(),
  /** sold: validated baskets, and validated ones reopened to edit their answers */
  validated: z.number().int(),
  /** taken from the stock (its counter): new + payment in progress + validated when the stock is the article's own */
  reserved: z.number().int().nullable(),
  refunded: z.number().int(),
  /** total − reserved, as the ticket office counts it */
  remaining: z.number().int().nullable(),
});
export type StockRow = z.infer<typeof StockRow>;

export const StocksTable = z.object({ eventId: Id, preview: z.boolean(), rows: z.array(StockRow) });
export type StocksTable = z.infer<typeof StocksTable>;

/** `GET /events/:id/dashboard` (docs/specification.md §3 "Dashboard statistics"), amounts in cents of CHF. */
export const Dashboard = z.object({
  eventId: Id,
  preview: z.boolean(),
  currency: z.literal("CHF"),
  /** what paid invoices took */
  totalSales: Cents,
  /** positive: what refunds gave back (credit notes not cancelled) */
  totalRefunded: Cents,
  /** validated baskets (and validated ones being edited) */
  validatedBaskets: z.number().int(),
  refundedBaskets: z.number().int(),
  /** baskets holding articles now: `new` with articles and not expired, and `payment_in_progress` */
  currentlyPurchasing: z.number().int(),
  /** per day (UTC, `YYYY-MM-DD`) with sales or refunds, oldest first */
  salesOverTime: z.array(z.object({ date: z.string(), sales: Cents, refunds: Cents, baskets: z.number().int() })),
  /** per article sold (held in validated baskets), most sold first */
  salesPerArticle: z.array(
    z.object({ nodeId: Id.nullable(), title: z.string(), count: z.number().int(), amount: Cents }),
  ),
});
export type Dashboard = z.infer<typeof Dashboard>;

/** `POST /baskets/:id/confirmation-mail`: the confirmation queued again, to the billing address. */
export const ConfirmationResent = BasketMail;

/** `GET /baskets/:id/tickets`: the language of the tickets, the buyer's by default. */
export const BasketTicketsQuery = z.object({ language: z.enum(LANGUAGES).optional() });
export type BasketTicketsQuery = z.output<typeof BasketTicketsQuery>;

/**
 * `GET /exports/:list`: `format` csv or xlsx; `filter` and `sort` as the list's (ra-data-simple-rest), plain
 * filter keys too; `range` is ignored (every row).
 */
export const ExportFormatQuery = z.object({ format: z.enum(EXPORT_FORMATS) });

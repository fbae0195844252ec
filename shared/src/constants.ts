// Domain vocabulary (docs/specification.md §3, §4, §9). One source for the db schema, the API validators and the
// clients.

export const EVENT_STATUSES = ["draft", "public", "closed", "archived"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const MODERATION_STATUSES = ["not_requested", "requested", "change_requested", "validated"] as const;
export type ModerationStatus = (typeof MODERATION_STATUSES)[number];

/**
 * The events list's `activity` filter (docs/specification.md §2.2), as of now: `active` — not closed nor archived and
 * not over (its end is not past; a draft counts, it is being prepared) —, `inactive` — every other (closed, archived,
 * or over) —, `registrations` / `payments` — open now: public, and now within its registrations / payments window (an
 * empty bound is open), as the ticket office decides (eventWindows).
 */
export const EVENT_ACTIVITIES = ["active", "inactive", "registrations", "payments"] as const;
export type EventActivity = (typeof EVENT_ACTIVITIES)[number];

export const ACCESS_METHODS = ["anonymous", "trusted_email", "third_party"] as const;
export type AccessMethod = (typeof ACCESS_METHODS)[number];

export const BASKET_STATUSES = ["new", "payment_in_progress", "validated", "edition_in_progress", "refunded"] as const;
export type BasketStatus = (typeof BASKET_STATUSES)[number];
/** Statuses whose selected articles count against a stock (docs/design.md §4 "Stock"). */
export const STOCK_HOLDING_BASKET_STATUSES = [
  "new",
  "payment_in_progress",
  "edition_in_progress",
  "validated",
] as const;

/** Statuses of a sold basket: paid (or free), and paid ones reopened to edit their answers (docs/design.md §4). */
export const SOLD_BASKET_STATUSES = ["validated", "edition_in_progress"] as const;
/** Statuses of the basket a buyer is still buying with: filling it, or paying for it (the ticket office reuses it). */
export const OPEN_BASKET_STATUSES = ["new", "payment_in_progress"] as const satisfies readonly BasketStatus[];

/**
 * `released`: taken out of the basket (by the buyer, or with a cancelled payment); `expired`: given back to the stock
 * because the basket's reservation time ran out, kept apart so the ticket office can offer to put it back (with its
 * options and answers) when the buyer returns; `refunded`: given back by a refund (its ticket no longer admits).
 */
export const SELECTED_NODE_STATUSES = ["held", "released", "expired", "refunded"] as const;
export type SelectedNodeStatus = (typeof SELECTED_NODE_STATUSES)[number];
/** Lines that no longer hold stock and were never sold: counted alike by stocks, refunds and late payments. */
export const GIVEN_BACK_STATUSES = ["released", "expired"] as const satisfies readonly SelectedNodeStatus[];
export const isGivenBack = (status: SelectedNodeStatus) => (GIVEN_BACK_STATUSES as readonly string[]).includes(status);

/**
 * An article of a basket as staff read it on the basket's page: its line's status and its basket's together.
 * `held`: in a basket not checked out, its stock reserved; `awaiting_payment`: checked out, the payment not in yet;
 * `sold`: the basket is paid (or free), its ticket admits; `refunded`: given back by a refund; `expired`: its
 * reservation ran out before checkout.
 */
export const ARTICLE_STATUSES = ["held", "awaiting_payment", "sold", "refunded", "expired"] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** What an element of the tree is: an article, an option, or a kind of group. */
export const NODE_CATEGORIES = [
  "article",
  "option",
  "single_choice",
  "multiple_choice",
  "complex",
  "no_configuration",
] as const;
export type NodeCategory = (typeof NODE_CATEGORIES)[number];
export const GROUP_CATEGORIES = ["single_choice", "multiple_choice", "complex", "no_configuration"] as const;

export const PRICE_RULE_MODES = [
  "set",
  "plus",
  "minus",
  "plus_percent",
  "minus_percent",
  "multiply",
  "divide",
] as const;
export type PriceRuleMode = (typeof PRICE_RULE_MODES)[number];

/** Where a price rule moves in the list of rules pricing one element (docs/decisions/0032). */
export const PRICE_RULE_DIRECTIONS = ["up", "down"] as const;
export type PriceRuleDirection = (typeof PRICE_RULE_DIRECTIONS)[number];

export const STATEMENT_OPERATORS = [">", ">=", "=", "!=", "<", "<=", "exists", "contains", "is in"] as const;
export type StatementOperator = (typeof STATEMENT_OPERATORS)[number];
export const STATEMENT_OPERANDS = ["promotion_code", "user_email"] as const;
export type StatementOperand = (typeof STATEMENT_OPERANDS)[number];
export const STATEMENT_SCOPES = ["is", "not"] as const;
export type StatementScope = (typeof STATEMENT_SCOPES)[number];
export const LOGICAL_OPERATORS = ["and", "or"] as const;
export type LogicalOperator = (typeof LOGICAL_OPERATORS)[number];

export const EXTRA_INFO_TYPES = [
  "choice",
  "country",
  "date",
  "dateMajor",
  "datetime",
  "email",
  "numerical",
  "phone",
  "text",
  "textarea",
  "boolean",
] as const;
export type ExtraInfoType = (typeof EXTRA_INFO_TYPES)[number];

export const UNIT_ROLES = ["member", "owner"] as const;
export type UnitRole = (typeof UNIT_ROLES)[number];

export const PAYMENT_METHODS = ["online", "point_of_sale"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_MODULES = ["demo", "point_of_sale", "stripe"] as const;
/** The modules an event may choose for its online payments (docs/design.md §4 "Payments"). */
export const ONLINE_PAYMENT_MODULES = ["demo", "stripe"] as const;
export type OnlinePaymentModule = (typeof ONLINE_PAYMENT_MODULES)[number];
/** What an invoice is to the staff and the buyer: derived from its resolved and cancelled flags. */
export const INVOICE_STATUSES = ["paid", "pending", "cancelled"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** Where a payment stands: open to pay, or closed for one of four reasons (api/src/services/baskets/payment-state.ts). */
export const PAYMENT_STATES = ["open", "paid", "failed", "expired", "cancelled"] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];
export type PaymentModule = (typeof PAYMENT_MODULES)[number];
export const PAYMENT_OUTCOMES = ["success", "cancel", "error"] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/** `cancelled`: never to be sent, its address erased at its owner's request (docs/decisions/0046). */
export const MAIL_STATUSES = ["pending", "sent", "failed", "cancelled"] as const;
export const MAIL_KINDS = [
  "order_confirmation",
  "payment_reminder",
  "trusted_email_login",
  "register_verify",
  "register_existing",
  "password_reset",
  "payment_expired",
  "refund",
  "waiting_list_joined",
  "waiting_list_offer",
  "event_cancelled",
  "webhook_disabled",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** docs/specification.md §9: what a back-office list downloads as. */
export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/**
 * The back-office lists `GET /exports/:list` writes (docs/design.md §3): `participants` is one row per sold article
 * with its form answers as columns; `stocks` is the event's stocks table; `check-ins` the event's check-in list.
 */
export const EXPORT_LISTS = [
  "events",
  "baskets",
  "participants",
  "invoices",
  "stocks",
  "memberships",
  "check-ins",
  "waiting-list",
] as const;
export type ExportList = (typeof EXPORT_LISTS)[number];

export const LEGAL_DOCUMENTS = ["privacy_policy", "terms_of_service", "imprint"] as const;
export const LANGUAGES = ["en", "fr"] as const;
export type Language = (typeof LANGUAGES)[number];
/** Whether a value (a stored choice, a URL's or a browser's language) is one of ours. */
export const isLanguage = (value: unknown): value is Language => (LANGUAGES as readonly unknown[]).includes(value);

export const STOCK_DISPLAYS = ["out_of_stock", "low", "available"] as const;
export type StockDisplay = (typeof STOCK_DISPLAYS)[number];

export const MIN_PASSWORD_LENGTH = 12;
export const MAJORITY_AGE = 18;
export const DEFAULT_RESERVATION_MINUTES = 30;
/** How long an unpaid online payment holds its articles (pretix's default payment term). */
export const DEFAULT_PAYMENT_TERM_MINUTES = 30;
/** The error message of an intent the ticket office cancelled itself at the end of the payment term. */
export const PAYMENT_TERM_EXPIRED = "payment_term_expired";
/** How many articles (options not counted) one basket may hold. */
export const DEFAULT_MAX_ITEMS_PER_BASKET = 20;
/** The highest item maximum an event may set, and so the most articles one add may ask for. */
export const MAX_ITEMS_PER_BASKET = 500;
export const CURRENCY = "CHF";

// --- A fair on-sale (issue 30, docs/decisions/0036 and 0037) ------------------------------------------------------

/**
 * How many times a buyer may renew the hold of one basket (`POST /frontend/baskets/:id/hold-again`), by default; an
 * event sets its own (`max_hold_renewals`, 0 to MAX_HOLD_RENEWALS). Adding to a basket does not renew its hold. Ten:
 * WCAG 2.2.1 (Timing Adjustable) asks that a buyer can extend at least ten times unless the limit is essential,
 * which an organiser may decide for a busy on-sale by setting fewer (docs/decisions/0042).
 */
export const DEFAULT_MAX_HOLD_RENEWALS = 10;
export const MAX_HOLD_RENEWALS = 20;
/**
 * When the ticket office warns that a hold nears its end: in its last third, and at most its last
 * HOLD_WARNING_MINUTES (30 minutes: the last 10; 6 minutes: the last 2). WCAG 2.2.1 asks for at least 20 seconds.
 */
export const HOLD_WARNING_SHARE = 1 / 3;
export const HOLD_WARNING_MINUTES = 10;
/** The most tickets per buyer an event or an article may allow (`max_tickets_per_buyer`, `max_per_buyer`). */
export const MAX_TICKETS_PER_BUYER = 500;

/**
 * A waiting room's state: `running` admits buyers at its rate from its opening time, `paused` admits nobody more
 * (those admitted stay admitted), `ended` lets everyone in without a place.
 */
export const WAITING_ROOM_STATUSES = ["running", "paused", "ended"] as const;
export type WaitingRoomStatus = (typeof WAITING_ROOM_STATUSES)[number];
/**
 * Where a buyer stands in a waiting room: `before_opening` (a place taken before the opening: drawn at random at the
 * opening), `waiting` (a position, not yet reached), `paused` (a position; the room admits nobody for now),
 * `admitted` (may hold a basket until `admitted_until`, or for good once they hold one), `lapsed` (admitted, but no
 * basket was held in time), `open` (no place needed: the room is off or ended).
 */
export const WAITING_ROOM_PLACE_STATES = ["before_opening", "waiting", "paused", "admitted", "lapsed", "open"] as const;
export type WaitingRoomPlaceState = (typeof WAITING_ROOM_PLACE_STATES)[number];
export const DEFAULT_WAITING_ROOM_RATE_PER_MINUTE = 100;
export const MAX_WAITING_ROOM_RATE_PER_MINUTE = 100_000;
export const DEFAULT_WAITING_ROOM_ADMISSION_MINUTES = 10;
export const MAX_WAITING_ROOM_ADMISSION_MINUTES = 24 * 60;
/** How often the waiting-room page reloads itself (a `Refresh` header: no JavaScript needed). */
export const WAITING_ROOM_REFRESH_SECONDS = 20;

/**
 * A waiting list entry's stored states (issue 31, docs/decisions/0038): `waiting` in line, `offering` only inside the
 * write that offers it, `offered` (stock held for it until `offer_expires_at`), `bought` (its offer's basket paid),
 * `expired` (the offer lapsed), `left` (its buyer left or declined), `removed` (by the organiser).
 */
export const WAITING_LIST_ENTRY_STATES = [
  "waiting",
  "offering",
  "offered",
  "bought",
  "expired",
  "left",
  "removed",
] as const;
export type WaitingListEntryState = (typeof WAITING_LIST_ENTRY_STATES)[number];
/** The states in which an entry is still in line or holds an offer: one such entry per buyer and article. */
export const LIVE_WAITING_LIST_ENTRY_STATES = [
  "waiting",
  "offering",
  "offered",
] as const satisfies readonly WaitingListEntryState[];
/** How long an offer lasts, in minutes: the default (a day), and the bounds the organiser chooses within. */
export const DEFAULT_WAITING_LIST_OFFER_MINUTES = 24 * 60;
export const MIN_WAITING_LIST_OFFER_MINUTES = 15;
export const MAX_WAITING_LIST_OFFER_MINUTES = 14 * 24 * 60;

/**
 * What a scan at the door gives (issue 17): `checked_in` the first time a sold ticket is scanned,
 * `already_checked_in` every time after (with when and by whom), `refused` for a ticket that does not admit.
 */
export const CHECK_IN_OUTCOMES = ["checked_in", "already_checked_in", "refused"] as const;
export type CheckInOutcome = (typeof CHECK_IN_OUTCOMES)[number];
/**
 * Why a scan is refused: `invalid_code` (not signed by us: forged, altered, truncated), `other_event` (a genuine
 * ticket of another event), `refunded` (its article or its basket was refunded), `cancelled` (never sold, or given
 * back: its basket is not paid, its line was released or expired), `wrong_mode` (a test ticket from the preview
 * at the real door, or a real ticket on the preview's check-in).
 */
export const CHECK_IN_REFUSALS = [
  "invalid_code",
  "other_event",
  "refunded",
  "cancelled",
  "wrong_mode",
  // An offline scan sent later (docs/decisions/0048): its device's clock ahead of ours by more than the skew
  // allowed, or scanned longer ago than an evening's offline scans may wait.
  "scanned_in_future",
  "scanned_too_long_ago",
] as const;
export type CheckInRefusal = (typeof CHECK_IN_REFUSALS)[number];
/** Offline check-in (docs/decisions/0048): the scans one sync sends at most. */
export const CHECK_IN_SYNC_MAX_SCANS = 200;
/** How far ahead of the server's clock a device's scan time may be (its clock a little fast), in milliseconds. */
export const CHECK_IN_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** How old an offline scan may be when it is sent, in milliseconds: a week (a festival's days without network). */
export const CHECK_IN_OFFLINE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** A scanning device's id, made once per browser: letters, digits, `-` and `_`. */
export const CHECK_IN_DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** Cancelling an event (docs/decisions/0047): how each paid order is paid back, and where its refund stands. */
export const CANCELLATION_REFUND_WAYS = ["provider", "by_hand"] as const;
export type CancellationRefundWay = (typeof CANCELLATION_REFUND_WAYS)[number];
export const CANCELLATION_BASKET_STATES = [
  "pending",
  "refunding",
  "refunded",
  "failed",
  "by_hand",
  "refunded_by_hand",
] as const;
export type CancellationBasketState = (typeof CANCELLATION_BASKET_STATES)[number];
/** The message to buyers a cancellation carries, per language. */
export const MAX_CANCELLATION_MESSAGE_LENGTH = 2000;

// Webhooks (docs/decisions/0045-webhooks.md): what a unit's endpoints may subscribe to, and how a delivery is retried.
/** The events a unit's webhook endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  "order.paid",
  "order.refunded",
  "order.cancelled",
  "ticket.checked_in",
  "waiting_list.offer",
  "event.status_changed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
/**
 * Seconds from a failed attempt to the next: 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (3 days and
 * 3 hours in all, ten attempts); the delivery is given up after the last.
 */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [60, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;
/** An endpoint with nothing delivered since the first failure of its current streak this long ago is switched off. */
export const WEBHOOK_DISABLE_AFTER_SECONDS = 3 * 24 * 3_600;
/** How long a delivery's POST may take before it counts as failed. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/** How far a receiver accepts a delivery's `Webhook-Timestamp` from its own clock (shared/src/webhook-signature.ts). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

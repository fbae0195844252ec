// What the ticket office reads from the API (`/frontend/...`, the ticket check): the buyer's tree, baskets and
// their lines, promotion codes, billing, invoices and payments, forms, points of sale, the confirmation page.
// Answers only, camelCase, exactly as the presenters (api/src/services/basket-views.ts, baskets.ts, checkout.ts,
// forms.ts, catalogue.ts) build them: a column that may be NULL is `.nullable()`, never `.optional()`.
import { z } from "zod";
import {
  BASKET_STATUSES,
  EXTRA_INFO_TYPES,
  LANGUAGES,
  NODE_CATEGORIES,
  PAYMENT_MODULES,
  PAYMENT_STATES,
  STOCK_DISPLAYS,
} from "../constants.ts";
import { PointOfSale as StaffPointOfSale } from "./catalogue.ts";
import { Cents, Id, IsoDate } from "./common.ts";

// --- Forms (extra infos, docs/specification.md §9 "Form field types") ---

/** `dateMajor`: the age to reach on a date (the event's start and 18 unless the field says otherwise). */
export const MajorRule = z.object({ referenceDate: z.string().optional(), age: z.number().optional() });
export type MajorRule = z.infer<typeof MajorRule>;

/** A form field as the tree shows it (services/catalogue.ts `presentFormGroup`). */
export const FormField = z.object({
  id: Id,
  name: z.string(),
  text: z.string(),
  helpText: z.string(),
  type: z.enum(EXTRA_INFO_TYPES),
  isRequired: z.boolean(),
  order: z.number().int(),
  /** The values an answer may take, as stored and checked (the organiser's English, docs/decisions/0043). */
  choices: z.array(z.string()),
  /** What the buyer reads of each of `choices`, in the same order, in their language: show the label, send the value. */
  choiceLabels: z.array(z.string()),
  major: MajorRule.nullable(),
});
export type FormField = z.infer<typeof FormField>;

/** A group of form fields (an extra-info group) linked to an element of the tree. */
export const FormGroup = z.object({
  id: Id,
  name: z.string(),
  order: z.number().int(),
  isInline: z.boolean(),
  helpText: z.string(),
  isRequired: z.boolean(),
  extraInfos: z.array(FormField),
});
export type FormGroup = z.infer<typeof FormGroup>;

/** A form field of a basket's article, with the answer given so far (null: none yet). */
export const ExtraInfo = FormField.extend({ value: z.string().nullable() });
export type ExtraInfo = z.infer<typeof ExtraInfo>;

export const ExtraInfoGroup = FormGroup.extend({ extraInfos: z.array(ExtraInfo) });
export type ExtraInfoGroup = z.infer<typeof ExtraInfoGroup>;

/**
 * The forms of one article in the basket: `GET /frontend/baskets/:id/forms` answers one per article that has
 * some, `PUT /frontend/selected-nodes/:id/extra-infos` the article's after saving.
 */
export const ItemForms = z.object({ itemId: Id, title: z.string(), groups: z.array(ExtraInfoGroup) });
export type ItemForms = z.infer<typeof ItemForms>;

// --- The buyer's tree (`GET /frontend/events/:id/tree`) ---

export const StockDisplay = z.enum(STOCK_DISPLAYS);
export type StockDisplay = z.infer<typeof StockDisplay>;

/** The tightest stock linked to an element: what to show, and the figures (remaining never below 0). */
export const NodeStock = z.object({ display: StockDisplay, remaining: z.number().int(), maximum: z.number().int() });
export type NodeStock = z.infer<typeof NodeStock>;

/** The group's choice range over its children's weights (docs/design.md §4 "Element tree"); null max: unbounded. */
export const NodeCart = z.object({
  weight: z.number().int(),
  rangeMin: z.number().int(),
  rangeMax: z.number().int().nullable(),
});
export type NodeCart = z.infer<typeof NodeCart>;

/** An element the visitor may see now, priced for them (services/catalogue.ts `buildVisitorTree`). */
export const TreeNode = z
  .object({
    id: Id,
    parentId: Id.nullable(),
    order: z.number().int(),
    configurationId: Id,
    cartConfigurationId: Id,
    category: z.enum(NODE_CATEGORIES),
    title: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable(),
    isTitleDisplayable: z.boolean(),
    isImageDisplayable: z.boolean(),
    isDescriptionDisplayable: z.boolean(),
    isTagsDisplayable: z.boolean(),
    isRequired: z.boolean(),
    tags: z.array(z.string()),
    /** For an article, priced for the visitor; null otherwise. */
    articleCalculatedPrice: Cents.nullable(),
    /** For an option, priced for the visitor; null otherwise. */
    optionCalculatedPrice: Cents.nullable(),
    stock: NodeStock.nullable(),
    cart: NodeCart,
    extraInfoGroups: z.array(FormGroup),
    get children() {
      return z.array(TreeNode);
    },
  })
  .meta({ id: "TreeNode" });
export type TreeNode = z.infer<typeof TreeNode>;

/** The event's tree as the visitor sees it; the root is null when the visitor may not see it at all. */
export const Tree = z.object({ eventId: Id, root: TreeNode.nullable() });
export type Tree = z.infer<typeof Tree>;

// --- Baskets ---

/** The buyer's billing details, as saved (`POST /frontend/billing-information` answers the row). */
export const BillingInformation = z.object({
  id: Id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  address: z.string(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  createdById: Id.nullable(),
  createdAt: IsoDate,
  /** When support erased the buyer's personal data at their request (docs/decisions/0046): the fields are placeholders. */
  erasedAt: IsoDate.nullable().optional(),
});
export type BillingInformation = z.infer<typeof BillingInformation>;

/** An option chosen with an article; nodeId null once the tree's element was deleted. */
export const BasketItemOption = z.object({ id: Id, nodeId: Id.nullable(), title: z.string(), price: Cents });
export type BasketItemOption = z.infer<typeof BasketItemOption>;

/** An article held in a basket: `price` includes its options, `articlePrice` is the article's alone. */
export const BasketItem = z.object({
  id: Id,
  nodeId: Id.nullable(),
  title: z.string(),
  price: Cents,
  articlePrice: Cents,
  options: z.array(BasketItemOption),
});
export type BasketItem = z.infer<typeof BasketItem>;

/** `POST /frontend/selected-nodes`: the article put in the basket. */
export const SelectedNode = BasketItem.extend({ basketId: Id });
export type SelectedNode = z.infer<typeof SelectedNode>;

/** A promotion code applied to a basket (`GET /frontend/selected-promotion-codes`). */
export const SelectedPromotionCode = z.object({ id: Id, name: z.string(), value: z.string() });
export type SelectedPromotionCode = z.infer<typeof SelectedPromotionCode>;

/** `POST /frontend/selected-promotion-codes`: the code applied. */
export const AppliedPromotionCode = SelectedPromotionCode.extend({ basketId: Id });
export type AppliedPromotionCode = z.infer<typeof AppliedPromotionCode>;

/** What a DELETE of a selected node or a selected promotion code answers. */
export const RemovedSelection = z.object({ id: Id, basketId: Id });
export type RemovedSelection = z.infer<typeof RemovedSelection>;

export const Invoice = z.object({
  id: Id,
  basketId: Id,
  /** 1, 2, 3… per unit without gaps (testing baskets' invoices numbered apart). */
  number: z.number().int(),
  isTesting: z.boolean(),
  /** Negative for a refund. */
  amount: Cents,
  dueDate: IsoDate.nullable(),
  isResolved: z.boolean(),
  resolvedAt: IsoDate.nullable(),
  isCancelled: z.boolean(),
  relatedInvoiceId: Id.nullable(),
  /** A refund's reason, as staff gave it. */
  reason: z.string().nullable(),
  createdAt: IsoDate,
});
export type Invoice = z.infer<typeof Invoice>;

/** A payment of an invoice (services/basket-views.ts `presentPaymentIntent`). */
export const PaymentIntent = z.object({
  id: Id,
  invoiceId: Id,
  createdById: Id.nullable(),
  moduleKey: z.enum(PAYMENT_MODULES),
  pspId: z.string(),
  isError: z.boolean(),
  isCancelled: z.boolean(),
  /** `payment_term_expired` when the ticket office cancelled an unpaid payment itself. */
  errorMessage: z.string().nullable(),
  createdAt: IsoDate,
  invoice: Invoice,
  /** Where it stands (api/src/services/baskets/payment-state.ts `paymentState`): the back office shows it. */
  state: z.enum(PAYMENT_STATES),
  /** Still open to pay (not paid, failed, cancelled or expired). */
  isOngoing: z.boolean(),
  /** Where to continue an ongoing demo payment; null otherwise. */
  paymentUrl: z.string().nullable(),
});
export type PaymentIntent = z.infer<typeof PaymentIntent>;

/** A basket in a list (`GET /frontend/baskets`, services/basket-views.ts `presentBaskets`). */
export const Basket = z.object({
  id: Id,
  eventId: Id,
  /** The same as eventId. */
  event: Id,
  createdById: Id,
  status: z.enum(BASKET_STATUSES),
  testing: z.boolean(),
  billingInformationId: Id.nullable(),
  language: z.enum(LANGUAGES),
  /** The reference a buyer quotes at a point of sale. */
  unikey: z.string(),
  /** Until when a `new` basket holds its articles; an online payment's deadline while it is being paid. */
  expiresAt: IsoDate,
  /** How many times its buyer renewed its hold (`POST …/hold-again`). */
  holdRenewals: z.number().int(),
  createdAt: IsoDate,
  updatedAt: IsoDate.nullable(),
  total: Cents,
  registrationsCount: z.number().int(),
  billingInformation: BillingInformation.nullable(),
  items: z.array(BasketItem),
});
export type Basket = z.infer<typeof Basket>;

/** One basket (`GET /frontend/baskets/:id`, `POST /frontend/baskets`): with its codes and payments, newest first. */
export const BasketDetail = Basket.extend({
  promotionCodes: z.array(SelectedPromotionCode),
  paymentIntents: z.array(PaymentIntent),
  /** Articles whose reservation ran out, not yet put back: `POST …/hold-again` tries to hold them again. */
  expiredItems: z.array(BasketItem),
  /** How many more times `POST …/hold-again` may renew its hold (the event's max_hold_renewals less those used). */
  holdRenewalsLeft: z.number().int(),
});
export type BasketDetail = z.infer<typeof BasketDetail>;

/** `POST /frontend/baskets/:id/hold-again`: the expired articles held again, and those the stock no longer has. */
export const HoldAgainResult = z.object({
  basket: BasketDetail,
  restored: z.array(BasketItem),
  unavailable: z.array(BasketItem),
});
export type HoldAgainResult = z.infer<typeof HoldAgainResult>;

/** `POST /frontend/baskets/:id/checkout`: no payment intent when the basket was free (validated at once). */
export const CheckoutResult = z.object({
  basket: BasketDetail,
  invoice: Invoice,
  paymentIntent: PaymentIntent.nullable(),
  paymentUrl: z.string().nullable(),
});
export type CheckoutResult = z.infer<typeof CheckoutResult>;

// --- The event's pages ---

/** A place where a basket can be paid (`GET /frontend/events/:id/points-of-sale`): the staff's row, without its event. */
export const PointOfSale = StaffPointOfSale.omit({
  eventId: true,
  titleFr: true,
  descriptionFr: true,
  locationFr: true,
});
export type PointOfSale = z.infer<typeof PointOfSale>;

/** What the confirmation page shows after an order: the organiser's text, or their https page to go to. */
export const ConfirmationPage = z.object({ text: z.string().nullable(), redirectUrl: z.string().nullable() });
export type ConfirmationPage = z.infer<typeof ConfirmationPage>;

/**
 * `GET /tickets/verify`: whether a ticket's signed code is good for entry. The ticket's claims come from the
 * code; its title, status and testing flag are null when the line no longer exists.
 */
export const TicketVerification = z.object({
  valid: z.boolean(),
  ticket: z.object({
    eventId: Id,
    basketId: Id,
    itemId: Id,
    title: z.string().nullable(),
    status: z.enum(BASKET_STATUSES).nullable(),
    testing: z.boolean().nullable(),
  }),
});
export type TicketVerification = z.infer<typeof TicketVerification>;

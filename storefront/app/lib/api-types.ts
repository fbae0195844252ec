// The API answers the storefront reads, after api.server.ts turned snake_case into camelCase (docs/api.md).
import type { AccessMethod, BasketStatus, EventStatus, ExtraInfoType, NodeCategory } from "@ticketing/shared/constants";

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export interface PublicInfos {
  id: number;
  registrationModuleId: number;
  frontendTitle: string;
  frontendPath: string;
  welcomeText: string | null;
  locationText: string | null;
  startDate: string;
  endDate: string;
  status: EventStatus;
  accessMethods: AccessMethod[];
  areRegistrationsAllowed: boolean;
  isBasketItemModificationAllowed: boolean;
  arePaymentsAllowed: boolean;
  reservationMinutes: number;
  paymentTermMinutes: number;
  maxItemsPerBasket: number;
  isPointOfSaleEnabled?: boolean;
}

export interface AnonymousLogin extends TokenPair {
  login: { id: number; eventId: number; testing: boolean; email: string | null; username: string | null };
}

export type StockDisplay = "available" | "low" | "out_of_stock";

export interface TreeNode {
  id: number;
  parentId?: number | null;
  order?: number;
  category: NodeCategory;
  title: string;
  description?: string | null;
  articleCalculatedPrice?: number | null; // cents
  optionCalculatedPrice?: number | null; // cents
  stock?: { display: StockDisplay; remaining: number; maximum: number } | null;
  /** The group's choice range over its children's weights (DESIGN 4 "Element tree"); null max: unbounded. */
  cart?: { weight: number; rangeMin: number; rangeMax: number | null } | null;
  imageUrl?: string | null;
  tags?: string[];
  isTitleDisplayable?: boolean;
  isImageDisplayable?: boolean;
  isDescriptionDisplayable?: boolean;
  isTagsDisplayable?: boolean;
  children: TreeNode[];
}

export interface Tree {
  eventId: number;
  root: TreeNode;
}

export interface Invoice {
  id: number;
  amount: number; // cents
  isResolved: boolean;
  isCancelled: boolean;
}

export interface PaymentIntent {
  id: number;
  moduleKey: "demo" | "point_of_sale" | (string & {});
  isError: boolean;
  isCancelled: boolean;
  /** `payment_term_expired` when the ticket office cancelled an unpaid payment itself. */
  errorMessage: string | null;
  invoice: Invoice | null;
  paymentUrl?: string | null;
}

export interface BasketItem {
  id: number;
  nodeId: number;
  title: string;
  price: number; // cents, options included
  options: { id: number; nodeId: number; title: string; price: number }[];
}

export interface BillingInformation {
  firstName: string;
  lastName: string;
  email: string;
  address: string;
  postalCode: string;
  city: string;
  country: string;
}

export interface SelectedPromotionCode {
  id: number;
  name: string;
  value: string;
}

export interface Basket {
  id: number;
  /** The reference a buyer quotes at a point of sale. */
  unikey?: string;
  eventId: number;
  status: BasketStatus;
  testing: boolean;
  total: number; // cents
  expiresAt?: string | null;
  billingInformation: BillingInformation | null;
  items: BasketItem[];
  promotionCodes?: SelectedPromotionCode[];
  paymentIntents: PaymentIntent[];
}

export interface CheckoutResult {
  basket: Basket;
  invoice: Invoice;
  paymentIntent: PaymentIntent | null;
  paymentUrl: string | null;
}

export interface PointOfSale {
  id: number;
  title: string;
  description: string | null;
  location: string | null;
}

/** A form field (SPEC 9 "Form field types"), with the answer already given. */
export interface ExtraInfo {
  id: number;
  name: string;
  text?: string | null;
  helpText?: string | null;
  type: ExtraInfoType;
  isRequired: boolean;
  choices?: string[] | null;
  /** `dateMajor`: the age to reach on the event date (18 unless the field says otherwise). */
  major?: { referenceDate?: string; age?: number } | null;
  value?: string | null;
}

export interface ExtraInfoGroup {
  id: number;
  name: string;
  isRequired: boolean;
  isInline: boolean;
  helpText?: string | null;
  extraInfos: ExtraInfo[];
}

/** The forms of one article in the basket (`GET /frontend/baskets/:id/forms`). */
export interface ItemForms {
  itemId: number;
  title: string;
  groups: ExtraInfoGroup[];
}

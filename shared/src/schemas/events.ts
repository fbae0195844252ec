// Events (`/events/*`): the back office's events, their moderation, articles, communication settings and price
// preview, and the ticket office's public infos.
import { z } from "zod";
import {
  ACCESS_METHODS,
  EVENT_ACTIVITIES,
  EVENT_STATUSES,
  LANGUAGES,
  type Language,
  MAX_HOLD_RENEWALS,
  MAX_ITEMS_PER_BASKET,
  MAX_TICKETS_PER_BUYER,
  MODERATION_STATUSES,
  ONLINE_PAYMENT_MODULES,
} from "../constants.ts";
import { NodeConfiguration, NodeLimit, NodePriceRule, NodeRow } from "./catalogue.ts";
import { Cents, Id, IsoDate, zBooleanFlag, zId, zIsoDate } from "./common.ts";

const text = (max: number) => z.string().trim().max(max);

/** The fields an organiser sets, on creation and on edit. */
const EventFields = {
  name: text(200).min(1),
  frontendTitle: text(200).min(1),
  /** The French of the texts buyers read (docs/decisions/0043): empty until written, the English read meanwhile. */
  frontendTitleFr: text(200).optional(),
  frontendPath: text(100).min(1),
  startDate: zIsoDate,
  endDate: zIsoDate,
  welcomeText: text(20_000).optional(),
  welcomeTextFr: text(20_000).optional(),
  locationText: text(2_000).optional(),
  locationTextFr: text(2_000).optional(),
  registrationsStartDate: zIsoDate.nullable().optional(),
  registrationsEndDate: zIsoDate.nullable().optional(),
  paymentsStartDate: zIsoDate.nullable().optional(),
  paymentsEndDate: zIsoDate.nullable().optional(),
  reservationMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .optional(),
  /** At least 5 minutes to pay, at most a week (a bank-transfer-like wait belongs to point of sale). */
  paymentTermMinutes: z
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .optional(),
  maxItemsPerBasket: z.number().int().min(1).max(MAX_ITEMS_PER_BASKET).optional(),
  /** At most this many tickets per buyer, over all their baskets on the event; null: no cap (docs/decisions/0036). */
  maxTicketsPerBuyer: z.number().int().min(1).max(MAX_TICKETS_PER_BUYER).nullable().optional(),
  /** How many times a buyer may renew a basket's hold (`hold-again`). */
  maxHoldRenewals: z.number().int().min(0).max(MAX_HOLD_RENEWALS).optional(),
  isPointOfSaleEnabled: z.boolean().optional(),
  /** Who takes the online payments: the built-in demo page, or Stripe (its unit's account must be set). */
  onlinePaymentModule: z.enum(ONLINE_PAYMENT_MODULES).optional(),
  accessMethods: z
    .array(z.enum(ACCESS_METHODS))
    .min(1, "errors.access_methods_required")
    .transform((methods) => [...new Set(methods)])
    .optional(),
};

export const EventCreate = z.strictObject({ unitId: zId, ...EventFields, status: z.literal("draft").optional() });
export type EventCreate = z.output<typeof EventCreate>;

// react-admin's edit form sends the whole record back: its read-only fields are accepted and ignored,
// any other unknown key is refused.
const READ_ONLY_EVENT_FIELDS = [
  "id",
  "unitId",
  "createdAt",
  "moderationStatus",
  "moderationDescription",
  "ticketOfficeUrl",
  "ticketOfficeTestingUrl",
  "registrationModuleId",
  "rootNodeId",
  "thirdPartySecretKey",
  "frontendUrl",
  "descriptionHeaderImageId",
  "frontendOrganizers",
  "frontendOrganizersFr",
  "location",
  "locationAddress",
  "isInLausanne",
  "closedStartDate",
  "isStripeConfigured",
] as const;

export type EventChanges = Partial<z.output<z.ZodObject<typeof EventFields>>> & {
  status?: (typeof EVENT_STATUSES)[number];
};

export const EventUpdate = z
  .strictObject({
    ...EventFields,
    status: z.enum(EVENT_STATUSES),
    ...Object.fromEntries(READ_ONLY_EVENT_FIELDS.map((key) => [key, z.unknown()])),
  })
  .partial()
  .transform((body) => {
    const fields: Record<string, unknown> = { ...body };
    for (const key of READ_ONLY_EVENT_FIELDS) delete fields[key];
    return fields as EventChanges;
  });
export type EventUpdate = z.output<typeof EventUpdate>;

/** An event as the back office sees it. */
export const Event = z.object({
  id: Id,
  unitId: Id,
  name: z.string(),
  frontendTitle: z.string(),
  frontendTitleFr: z.string(),
  frontendPath: z.string(),
  frontendUrl: z.string().nullable(),
  status: z.enum(EVENT_STATUSES),
  moderationStatus: z.enum(MODERATION_STATUSES),
  moderationDescription: z.string().nullable(),
  welcomeText: z.string(),
  welcomeTextFr: z.string(),
  descriptionHeaderImageId: Id.nullable(),
  frontendOrganizers: z.string(),
  frontendOrganizersFr: z.string(),
  location: z.string(),
  locationText: z.string(),
  locationTextFr: z.string(),
  locationAddress: z.string(),
  isInLausanne: z.boolean(),
  startDate: IsoDate,
  endDate: IsoDate,
  registrationsStartDate: IsoDate.nullable(),
  registrationsEndDate: IsoDate.nullable(),
  paymentsStartDate: IsoDate.nullable(),
  paymentsEndDate: IsoDate.nullable(),
  closedStartDate: IsoDate.nullable(),
  reservationMinutes: z.number().int(),
  paymentTermMinutes: z.number().int(),
  maxItemsPerBasket: z.number().int(),
  maxTicketsPerBuyer: z.number().int().nullable(),
  maxHoldRenewals: z.number().int(),
  isPointOfSaleEnabled: z.boolean(),
  onlinePaymentModule: z.enum(ONLINE_PAYMENT_MODULES),
  /** Whether the event's unit has its Stripe account set: the `stripe` module can take payments. */
  isStripeConfigured: z.boolean(),
  createdAt: IsoDate,
  /** The ticket office's entry point: the id the ticket-office logins name (`active_module_id`). */
  registrationModuleId: Id.nullable(),
  rootNodeId: Id.nullable(),
  accessMethods: z.array(z.enum(ACCESS_METHODS)),
  /** The key a third party signs its login tokens with, when that method is on. */
  thirdPartySecretKey: z.string().nullable(),
  ticketOfficeUrl: z.string(),
  ticketOfficeTestingUrl: z.string(),
});
export type Event = z.infer<typeof Event>;

/**
 * `GET /events` (and its export) filters beside the id filters `id` and `unit_id`; `q` searches the name, `activity`
 * is one of EVENT_ACTIVITIES (their meaning is there).
 */
export const EventListFilter = z.object({
  q: z.string().max(200).optional(),
  status: z.enum(EVENT_STATUSES).optional(),
  moderationStatus: z.enum(MODERATION_STATUSES).optional(),
  activity: z.enum(EVENT_ACTIVITIES).optional(),
});
export type EventListFilter = z.output<typeof EventListFilter>;

/** `POST /events/:id/moderation/request-changes`: what the organiser should change. */
export const ModerationChanges = z.strictObject({
  description: z.string().trim().min(1, "errors.moderation_description_required").max(5_000),
});
export type ModerationChanges = z.output<typeof ModerationChanges>;

// --- The ticket office's view -----------------------------------------------------------------------------------

/** Without `path`, every public event; with it, that event (`testing`: a preview, for its unit's staff). */
export const PublicInfosQuery = z.object({
  path: z.string().min(1).max(100).optional(),
  testing: zBooleanFlag.optional(),
});
export type PublicInfosQuery = z.output<typeof PublicInfosQuery>;

export const PublicInfos = z.object({
  id: Id,
  registrationModuleId: Id.nullable(),
  frontendTitle: z.string(),
  frontendPath: z.string(),
  welcomeText: z.string(),
  locationText: z.string(),
  startDate: IsoDate,
  endDate: IsoDate,
  status: z.enum(EVENT_STATUSES),
  accessMethods: z.array(z.enum(ACCESS_METHODS)),
  reservationMinutes: z.number().int(),
  paymentTermMinutes: z.number().int(),
  maxItemsPerBasket: z.number().int(),
  /** At most this many tickets per buyer over all their baskets on the event (null: no cap). */
  maxTicketsPerBuyer: z.number().int().nullable(),
  maxHoldRenewals: z.number().int(),
  isPointOfSaleEnabled: z.boolean(),
  /** Whether buyers pass through the event's waiting room (it is on and has not ended): docs/decisions/0037. */
  hasWaitingRoom: z.boolean(),
  /**
   * The event's waiting list (docs/decisions/0038), null when it has none: `accepting` whether buyers may join it now
   * (the buy page then offers it on a sold-out article).
   */
  waitingList: z.object({ accepting: z.boolean() }).nullable(),
  /** docs/specification.md §4: basket actions need registrations allowed; starting payment needs payments allowed. */
  areRegistrationsAllowed: z.boolean(),
  isBasketItemModificationAllowed: z.boolean(),
  arePaymentsAllowed: z.boolean(),
  /**
   * The event is cancelled (docs/decisions/0047): the organiser's message to buyers, in the reader's language (else
   * in the other). Null while it is not.
   */
  cancellation: z.object({ message: z.string(), cancelledAt: IsoDate }).nullable(),
});
export type PublicInfos = z.infer<typeof PublicInfos>;

// --- Articles -------------------------------------------------------------------------------------------------

/** A row of `GET /events/:id/articles`. */
export const Article = z.object({
  nodeId: Id,
  parentId: Id.nullable(),
  configurationId: Id,
  title: z.string(),
  price: Cents,
  stock: z
    .object({
      limitId: Id,
      maximum: z.number().int(),
      reserved: z.number().int(),
      sold: z.number().int(),
      remaining: z.number().int(),
    })
    .nullable(),
});
export type Article = z.infer<typeof Article>;

/** An article with a `set` price rule and its own stock, under `parentId` (default: the root). */
export const NewArticle = z.strictObject({
  title: z.string().trim().min(1).max(200),
  description: z.string().max(5_000).optional(),
  price: Cents.min(0).max(100_000_000),
  stock: z.number().int().min(0).max(10_000_000),
  parentId: zId.optional(),
});
export type NewArticle = z.output<typeof NewArticle>;

/** The rows `POST /events/:id/articles` made, as they were stored (no stock figures or links yet). */
export const AddedArticle = z.object({
  node: NodeRow,
  configuration: NodeConfiguration,
  limit: NodeLimit.omit({ nodeConfigurationIds: true, sold: true, reserved: true, remaining: true }),
  priceRule: NodePriceRule.omit({ nodeConfigurationIds: true }),
});
export type AddedArticle = z.infer<typeof AddedArticle>;

/** `GET /events/:id/price-preview`: the prices a visitor with this email and these codes would see. */
export const PricePreviewQuery = z.object({
  email: z.email().max(254).optional().or(z.literal("")),
  /** comma-joined promotion codes */
  codes: z.string().max(2_000).optional(),
});
export type PricePreviewQuery = z.output<typeof PricePreviewQuery>;

export const PricePreviewRow = z.object({
  nodeId: Id,
  parentId: Id.nullable(),
  category: z.enum(["article", "option"]),
  title: z.string(),
  price: Cents,
});
export type PricePreviewRow = z.infer<typeof PricePreviewRow>;

// --- Communication settings (docs/specification.md §2.2 "communication") ---------------------------------------------

/**
 * The placeholders each of an organiser's texts may use, filled from the order it is about (the buyer's name, the
 * event's title, the order's reference…). Any other `{{word}}` is refused when saved rather than sent as written.
 */
const MAIL_PLACEHOLDERS = ["name", "event", "reference", "total", "event_date"] as const;
export const COMMUNICATION_PLACEHOLDERS = {
  signature: ["event"],
  orderConfirmationSubject: MAIL_PLACEHOLDERS,
  orderConfirmationBody: MAIL_PLACEHOLDERS,
  paymentReminderSubject: MAIL_PLACEHOLDERS,
  paymentReminderBody: MAIL_PLACEHOLDERS,
  confirmationPageText: ["event"],
  pdfTicketText: ["name", "event", "reference", "article"],
} as const;
/**
 * A text an organiser writes once per language (`orderConfirmationSubjectEn`, `…Fr`); empty in one, the other is read,
 * empty in both, ours (`communicationText`).
 */
export type CommunicationText = keyof typeof COMMUNICATION_PLACEHOLDERS;

/** The field of `text` in `language`: `orderConfirmationSubjectFr`. */
export const communicationField = <T extends CommunicationText>(text: T, language: Language) =>
  `${text}${language === "fr" ? "Fr" : "En"}` as const;

/**
 * The organiser's `text` for a buyer of `language`: theirs in that language, else theirs in the other one (issue 34,
 * docs/decisions/0043), trimmed; null when neither is written, and the caller then uses ours.
 */
export function communicationText(
  settings: Partial<Record<`${CommunicationText}${"En" | "Fr"}`, string | null>> | null | undefined,
  text: CommunicationText,
  language: Language,
): string | null {
  const other: Language = language === "fr" ? "en" : "fr";
  for (const each of [language, other]) {
    const written = settings?.[communicationField(text, each)]?.trim();
    if (written) return written;
  }
  return null;
}

/**
 * Every field of an organiser's texts, in every language: what may still change on a public event
 * (`areCommunicationTextsLocked`, docs/decisions/0031), unlike the sender, the reply address, the redirect address
 * and whether tickets are attached.
 */
export const COMMUNICATION_TEXT_FIELDS: readonly string[] = (
  Object.keys(COMMUNICATION_PLACEHOLDERS) as CommunicationText[]
).flatMap((text) => LANGUAGES.map((language) => communicationField(text, language)));

/** `{{ name }}` in an organiser's text. */
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** The `{{name}}` placeholders of an organiser's text filled; one without a value is left as written. */
export function fillPlaceholders(template: string, values: Partial<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (match, name: string) => values[name] ?? match);
}

/** The placeholders of `template` that `text` may not use, each once, as written (`{{ nme }}`). */
export function unknownPlaceholders(text: CommunicationText, template: string): string[] {
  const allowed: readonly string[] = COMMUNICATION_PLACEHOLDERS[text];
  const unknown = [...template.matchAll(PLACEHOLDER)].filter((match) => !allowed.includes(match[1] ?? ""));
  return [...new Set(unknown.map((match) => match[0]))];
}

/** The mails whose texts an organiser writes, previews and tests. */
export const COMMUNICATION_MAILS = ["order_confirmation", "payment_reminder"] as const;
export type CommunicationMail = (typeof COMMUNICATION_MAILS)[number];

export const Communication = z.object({
  id: Id,
  eventId: Id,
  /** The name buyers see as the sender of the event's mails (the address stays the platform's); null: ours. */
  senderName: z.string().nullable(),
  /** Where buyers' answers to the event's mails go; null: the platform's address. */
  replyTo: z.string().nullable(),
  signatureEn: z.string().nullable(),
  signatureFr: z.string().nullable(),
  orderConfirmationSubjectEn: z.string().nullable(),
  orderConfirmationSubjectFr: z.string().nullable(),
  orderConfirmationBodyEn: z.string().nullable(),
  orderConfirmationBodyFr: z.string().nullable(),
  paymentReminderSubjectEn: z.string().nullable(),
  paymentReminderSubjectFr: z.string().nullable(),
  paymentReminderBodyEn: z.string().nullable(),
  paymentReminderBodyFr: z.string().nullable(),
  confirmationPageTextEn: z.string().nullable(),
  confirmationPageTextFr: z.string().nullable(),
  confirmationRedirectUrl: z.string().nullable(),
  isPdfTicketEnabled: z.boolean(),
  pdfTicketTextEn: z.string().nullable(),
  pdfTicketTextFr: z.string().nullable(),
});
export type Communication = z.infer<typeof Communication>;

/** A full https address of a named host (no credentials in it): where a buyer may be sent after paying. */
function isHttpsAddress(address: string): boolean {
  if (!URL.canParse(address)) return false;
  const url = new URL(address);
  return url.protocol === "https:" && z.regexes.domain.test(url.hostname) && !url.username && !url.password;
}

/** An organiser's text: an empty one is stored as null (ours is used). */
const ownText = (max: number) =>
  z
    .string()
    .max(max)
    .transform((value) => (value.trim() === "" ? null : value))
    .nullable();
const ownLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || null)
    .nullable();

const CommunicationFields = {
  // A display name only: no line breaks or angle brackets that could forge another header or address.
  senderName: ownLine(100).refine(
    (name) => name === null || !/[\r\n<>"]/.test(name),
    "errors.communication_sender_name",
  ),
  replyTo: z
    .union([z.literal(""), z.email()])
    .transform((address) => address || null)
    .nullable(),
  signatureEn: ownText(1_000),
  signatureFr: ownText(1_000),
  orderConfirmationSubjectEn: ownLine(300),
  orderConfirmationSubjectFr: ownLine(300),
  orderConfirmationBodyEn: ownText(20_000),
  orderConfirmationBodyFr: ownText(20_000),
  paymentReminderSubjectEn: ownLine(300),
  paymentReminderSubjectFr: ownLine(300),
  paymentReminderBodyEn: ownText(20_000),
  paymentReminderBodyFr: ownText(20_000),
  confirmationPageTextEn: ownText(20_000),
  confirmationPageTextFr: ownText(20_000),
  // Only https: a buyer is sent there after paying (never javascript:, data: or plain http).
  confirmationRedirectUrl: z
    .string()
    .trim()
    .max(2_000)
    .refine((address) => address === "" || isHttpsAddress(address), "errors.confirmation_url_https")
    .transform((address) => address || null)
    .nullable(),
  isPdfTicketEnabled: z.boolean(),
  pdfTicketTextEn: ownText(5_000),
  pdfTicketTextFr: ownText(5_000),
  // react-admin's form sends the record back: its id and event are ignored.
  id: z.unknown(),
  eventId: z.unknown(),
};

/** The communication settings an organiser changes; the form's `id` and `eventId` are ignored. */
const EditedCommunication = z.strictObject(CommunicationFields).partial();
export const CommunicationUpdate = EditedCommunication.transform(
  ({ id: _id, eventId: _eventId, ...changes }) => changes,
);
export type CommunicationUpdate = z.output<typeof CommunicationUpdate>;

/**
 * A preview from the form as it stands, unsaved: its values over the saved ones, for a sample basket of the
 * event, in one language (`mail` for a mail; the PDF ticket's preview ignores it).
 */
export const CommunicationPreview = z
  .strictObject({
    ...EditedCommunication.shape,
    mail: z.enum(COMMUNICATION_MAILS).default("order_confirmation"),
    language: z.enum(LANGUAGES).default("en"),
  })
  .transform(({ id: _id, eventId: _eventId, mail, language, ...changes }) => ({ mail, language, changes }));
export type CommunicationPreview = z.output<typeof CommunicationPreview>;

/** A mail as it would be sent. */
export const MailPreview = z.object({ subject: z.string(), text: z.string(), html: z.string() });
export type MailPreview = z.infer<typeof MailPreview>;

/** A test of a mail with the saved texts, to the signed-in organiser's own address. */
export const TestMailRequest = z.strictObject({
  mail: z.enum(COMMUNICATION_MAILS),
  language: z.enum(LANGUAGES).default("en"),
});
export type TestMailRequest = z.output<typeof TestMailRequest>;

export const TestMailSent = z.object({ to: z.string(), mail: z.enum(COMMUNICATION_MAILS) });
export type TestMailSent = z.infer<typeof TestMailSent>;

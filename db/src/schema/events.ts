import {
  ACCESS_METHODS,
  DEFAULT_MAX_HOLD_RENEWALS,
  DEFAULT_MAX_ITEMS_PER_BASKET,
  DEFAULT_PAYMENT_TERM_MINUTES,
  DEFAULT_RESERVATION_MINUTES,
  EVENT_STATUSES,
  MODERATION_STATUSES,
  ONLINE_PAYMENT_MODULES,
  WAITING_ROOM_STATUSES,
} from "@ticketing/shared/constants";
import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, blob, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { nodes } from "./catalogue.ts";
import { bool, createdAt, french, id } from "./columns.ts";
import { units, users } from "./users-units.ts";

export const events = sqliteTable(
  "events",
  {
    id: id(),
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id),
    name: text("name").notNull(),
    frontendTitle: text("frontend_title").notNull(),
    frontendTitleFr: french("frontend_title_fr"),
    frontendPath: text("frontend_path").notNull(),
    frontendUrl: text("frontend_url"),
    status: text("status", { enum: EVENT_STATUSES }).notNull().default("draft"),
    moderationStatus: text("moderation_status", { enum: MODERATION_STATUSES }).notNull().default("not_requested"),
    moderationDescription: text("moderation_description"),
    welcomeText: text("welcome_text").notNull().default(""),
    welcomeTextFr: french("welcome_text_fr"),
    descriptionHeaderImageId: integer("description_header_image_id"),
    frontendOrganizers: text("frontend_organizers").notNull().default(""),
    frontendOrganizersFr: french("frontend_organizers_fr"),
    location: text("location").notNull().default(""),
    locationText: text("location_text").notNull().default(""),
    locationTextFr: french("location_text_fr"),
    locationAddress: text("location_address").notNull().default(""),
    isInLausanne: bool("is_in_lausanne").notNull().default(false),
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    registrationsStartDate: text("registrations_start_date"),
    registrationsEndDate: text("registrations_end_date"),
    paymentsStartDate: text("payments_start_date"),
    paymentsEndDate: text("payments_end_date"),
    closedStartDate: text("closed_start_date"),
    reservationMinutes: integer("reservation_minutes").notNull().default(DEFAULT_RESERVATION_MINUTES),
    /** How long an unpaid online payment keeps the basket's articles before it is cancelled. */
    paymentTermMinutes: integer("payment_term_minutes").notNull().default(DEFAULT_PAYMENT_TERM_MINUTES),
    maxItemsPerBasket: integer("max_items_per_basket").notNull().default(DEFAULT_MAX_ITEMS_PER_BASKET),
    /** At most this many articles per buyer (login), over all their open and sold baskets; null: no cap. */
    maxTicketsPerBuyer: integer("max_tickets_per_buyer"),
    /**
     * How many times a basket's hold may be renewed by its buyer. The table's SQL default is still 3 (migration 0012
     * says why); drizzle writes this one into every insert.
     */
    maxHoldRenewals: integer("max_hold_renewals").notNull().default(DEFAULT_MAX_HOLD_RENEWALS),
    isPointOfSaleEnabled: bool("is_point_of_sale_enabled").notNull().default(false),
    /** Which module takes the event's online payments (the unit's Stripe account, or the demo page). */
    onlinePaymentModule: text("online_payment_module", { enum: ONLINE_PAYMENT_MODULES }).notNull().default("demo"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("events_frontend_path").on(sql`lower(${t.frontendPath})`), index("events_unit").on(t.unitId)],
);

export const eventAccessMethods = sqliteTable(
  "event_access_methods",
  {
    id: id(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    method: text("method", { enum: ACCESS_METHODS }).notNull(),
    /** HS256 secret of third-party tokens. */
    secretKey: text("secret_key"),
  },
  (t) => [uniqueIndex("event_access_methods_event_method").on(t.eventId, t.method)],
);

export const registrationModules = sqliteTable("registration_modules", {
  id: id(),
  eventId: integer("event_id")
    .notNull()
    .unique()
    .references(() => events.id, { onDelete: "cascade" }),
  rootNodeId: integer("root_node_id").references((): AnySQLiteColumn => nodes.id, { onDelete: "set null" }),
});

/** One ticket-office login per (event, testing flag, person) — docs/design.md §4. */
export const frontendLogins = sqliteTable(
  "frontend_logins",
  {
    id: id(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    testing: bool("testing").notNull().default(false),
    method: text("method", { enum: ACCESS_METHODS }).notNull(),
    email: text("email"),
    username: text("username").notNull(),
    /** The back-office user previewing the ticket office, in testing mode. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    validationTokenHash: text("validation_token_hash"),
    validationExpiresAt: text("validation_expires_at"),
    validatedAt: text("validated_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("frontend_logins_person").on(t.eventId, t.testing, t.email).where(sql`${t.email} IS NOT NULL`)],
);

export const uploadedImages = sqliteTable("uploaded_images", {
  id: id(),
  /** The name it had on disk (uuid.extension): its extension gives the media type. */
  file: text("file").notNull(),
  /** The image itself, in the database so that every API process serves it; null for a file not yet moved in. */
  bytes: blob("bytes", { mode: "buffer" }),
  uploadedAt: createdAt(),
  eventId: integer("event_id").references(() => events.id, { onDelete: "cascade" }),
  frontendLoginId: integer("frontend_login_id").references(() => frontendLogins.id, { onDelete: "set null" }),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  privacyLevel: text("privacy_level", { enum: ["public", "private"] })
    .notNull()
    .default("public"),
});

export const pointsOfSale = sqliteTable("points_of_sale", {
  id: id(),
  eventId: integer("event_id")
    .notNull()
    .references(() => events.id, { onDelete: "cascade" }),
  title: text("title").notNull(),
  titleFr: french("title_fr"),
  description: text("description").notNull().default(""),
  descriptionFr: french("description_fr"),
  location: text("location").notNull().default(""),
  locationFr: french("location_fr"),
});

export const communicationSettings = sqliteTable("communication_settings", {
  id: id(),
  eventId: integer("event_id")
    .notNull()
    .unique()
    .references(() => events.id, { onDelete: "cascade" }),
  confirmationRedirectUrl: text("confirmation_redirect_url"),
  isPdfTicketEnabled: bool("is_pdf_ticket_enabled").notNull().default(true),
  senderName: text("sender_name"),
  replyTo: text("reply_to"),
  signatureEn: text("signature_en"),
  signatureFr: text("signature_fr"),
  orderConfirmationSubjectEn: text("order_confirmation_subject_en"),
  orderConfirmationSubjectFr: text("order_confirmation_subject_fr"),
  orderConfirmationBodyEn: text("order_confirmation_body_en"),
  orderConfirmationBodyFr: text("order_confirmation_body_fr"),
  paymentReminderSubjectEn: text("payment_reminder_subject_en"),
  paymentReminderSubjectFr: text("payment_reminder_subject_fr"),
  paymentReminderBodyEn: text("payment_reminder_body_en"),
  paymentReminderBodyFr: text("payment_reminder_body_fr"),
  confirmationPageTextEn: text("confirmation_page_text_en"),
  confirmationPageTextFr: text("confirmation_page_text_fr"),
  pdfTicketTextEn: text("pdf_ticket_text_en"),
  pdfTicketTextFr: text("pdf_ticket_text_fr"),
});

/**
 * An event's waiting room (docs/decisions/0037): from `opens_at` it admits `rate_per_minute` buyers a minute, in the
 * order of their places. `schedule` is what every API process computes admissions from: a JSON array of
 * `[at, admitted, rate]` steps — from `at` (ISO), the first `admitted` places are in and one more comes in every
 * 60/rate seconds (rate 0: paused). The opening is the first step; each change of rate, pause and resume adds one.
 */
export const waitingRooms = sqliteTable("waiting_rooms", {
  eventId: integer("event_id")
    .primaryKey()
    .references(() => events.id, { onDelete: "cascade" }),
  opensAt: text("opens_at").notNull(),
  ratePerMinute: integer("rate_per_minute").notNull(),
  admissionMinutes: integer("admission_minutes").notNull(),
  status: text("status", { enum: WAITING_ROOM_STATUSES }).notNull().default("running"),
  schedule: text("schedule").notNull().default("[]"),
  createdAt: createdAt(),
  updatedAt: text("updated_at"),
});

/**
 * A buyer's place in a waiting room: one per login, device and address (while not `left_at`). A place taken before
 * the opening is `early` and carries a random `draw` that orders the early places; a later one is placed by arrival
 * (`position`, set when it is taken: after every early place).
 */
export const waitingRoomPlaces = sqliteTable(
  "waiting_room_places",
  {
    id: id(),
    eventId: integer("event_id")
      .notNull()
      .references(() => waitingRooms.eventId, { onDelete: "cascade" }),
    loginId: integer("login_id")
      .notNull()
      .references(() => frontendLogins.id, { onDelete: "cascade" }),
    /** The client's address when the place was taken (TRUSTED_PROXIES' X-Forwarded-For). */
    address: text("address").notNull(),
    /** The device cookie's nonce, when the browser presented one. */
    device: text("device"),
    arrivedAt: text("arrived_at").notNull(),
    early: bool("early").notNull(),
    /** Early places: a random key, their order at the opening. */
    draw: integer("draw"),
    /** Later places: their position, 1-based, after every early place. */
    position: integer("position"),
    /** When its buyer first held a basket while admitted: the admission then lasts. */
    heldAt: text("held_at"),
    leftAt: text("left_at"),
  },
  (t) => [
    uniqueIndex("waiting_room_places_login").on(t.eventId, t.loginId).where(sql`${t.leftAt} IS NULL`),
    uniqueIndex("waiting_room_places_device")
      .on(t.eventId, t.device)
      .where(sql`${t.device} IS NOT NULL AND ${t.leftAt} IS NULL`),
    index("waiting_room_places_draw").on(t.eventId, t.early, t.draw),
    index("waiting_room_places_address").on(t.eventId, t.address),
  ],
);

// An event's waiting list (issue 31, docs/decisions/0038): the organiser's settings and entries
// (`/events/:id/waiting-list`), a buyer's own entries (`/frontend/waiting-list`), and an offer opened from its mail
// (`/frontend/waiting-list/offers/:id`, authorised by the code the mail carries).
import { z } from "zod";
import {
  LANGUAGES,
  MAX_TICKETS_PER_BUYER,
  MAX_WAITING_LIST_OFFER_MINUTES,
  MIN_WAITING_LIST_OFFER_MINUTES,
  WAITING_LIST_ENTRY_STATES,
} from "../constants.ts";
import { FrontendSignIn } from "./auth.ts";
import { Id, IsoDate, zBooleanFlag, zId } from "./common.ts";

/** `PUT /events/:id/waiting-list`: switches the list on, or changes it. */
export const WaitingListSettings = z.strictObject({
  /** Whether buyers may join now; entries already in line are served either way. */
  accepting: z.boolean(),
  /** Offers made as soon as stock is free (true), or only by the organiser (false). */
  automatic: z.boolean(),
  offerMinutes: z.number().int().min(MIN_WAITING_LIST_OFFER_MINUTES).max(MAX_WAITING_LIST_OFFER_MINUTES),
  /** Whether an entry whose quantity cannot be met is offered what is left. */
  partialOffers: z.boolean(),
});
export type WaitingListSettings = z.output<typeof WaitingListSettings>;

/** The entries in each state (`offering` never shows: it lasts inside one write). */
export const WaitingListCounts = z.object({
  waiting: z.number().int(),
  offered: z.number().int(),
  bought: z.number().int(),
  expired: z.number().int(),
  left: z.number().int(),
  removed: z.number().int(),
});
export type WaitingListCounts = z.infer<typeof WaitingListCounts>;

/** `GET /events/:id/waiting-list` (404 when the event has none); `?testing=1` counts preview mode's list. */
export const WaitingList = z.object({
  eventId: Id,
  accepting: z.boolean(),
  automatic: z.boolean(),
  offerMinutes: z.number().int(),
  partialOffers: z.boolean(),
  counts: WaitingListCounts,
  updatedAt: IsoDate.nullable(),
});
export type WaitingList = z.infer<typeof WaitingList>;
export const WaitingListQuery = z.object({ testing: zBooleanFlag.default(false) });

/** `GET /events/:id/waiting-list/entries?testing=&state=&page=&per_page=`: in order of joining. */
export const WaitingListEntriesQuery = z.object({
  testing: zBooleanFlag.default(false),
  state: z.enum(WAITING_LIST_ENTRY_STATES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
});
export type WaitingListEntriesQuery = z.output<typeof WaitingListEntriesQuery>;

/** An entry as the organiser sees it. */
export const WaitingListEntry = z.object({
  id: Id,
  eventId: Id,
  /** 1-based among the entries still waiting (null once offered or closed). */
  position: z.number().int().nullable(),
  email: z.string(),
  language: z.enum(LANGUAGES),
  testing: z.boolean(),
  nodeId: Id.nullable(),
  title: z.string(),
  quantity: z.number().int(),
  state: z.enum(WAITING_LIST_ENTRY_STATES),
  offeredQuantity: z.number().int().nullable(),
  offeredAt: IsoDate.nullable(),
  offerExpiresAt: IsoDate.nullable(),
  basketId: Id.nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate.nullable(),
});
export type WaitingListEntry = z.infer<typeof WaitingListEntry>;
export const WaitingListEntries = z.object({ data: z.array(WaitingListEntry), total: z.number().int() });

/** `POST /frontend/waiting-list`: joins the list for an article, as the signed-in buyer (a proved email). */
export const WaitingListJoin = z.strictObject({
  eventId: zId,
  nodeId: zId,
  quantity: z.coerce.number().int().min(1).max(MAX_TICKETS_PER_BUYER).default(1),
  testing: zBooleanFlag.default(false),
});
export type WaitingListJoin = z.output<typeof WaitingListJoin>;
export const OwnWaitingListQuery = z.object({ eventId: zId, testing: zBooleanFlag.default(false) });

/** A buyer's own entry (`GET /frontend/waiting-list?event_id=`, and the answer of a join). */
export const OwnWaitingListEntry = z.object({
  id: Id,
  eventId: Id,
  nodeId: Id.nullable(),
  title: z.string(),
  quantity: z.number().int(),
  state: z.enum(WAITING_LIST_ENTRY_STATES),
  /** 1-based among the entries still waiting for the same event (null once offered or closed). */
  position: z.number().int().nullable(),
  offeredQuantity: z.number().int().nullable(),
  offerExpiresAt: IsoDate.nullable(),
  basketId: Id.nullable(),
  createdAt: IsoDate,
});
export type OwnWaitingListEntry = z.infer<typeof OwnWaitingListEntry>;

/** The code an offer's mail carries: it alone authorises reading, opening and declining the offer. */
export const WaitingListOfferCode = z.strictObject({ code: z.string().min(16).max(128) });
export const WaitingListOfferQuery = z.object({ code: z.string().min(16).max(128) });

/** `GET /frontend/waiting-list/offers/:id?code=`: the offer as its mail's link shows it. */
export const WaitingListOffer = z.object({
  id: Id,
  eventId: Id,
  title: z.string(),
  quantity: z.number().int(),
  offeredQuantity: z.number().int().nullable(),
  state: z.enum(WAITING_LIST_ENTRY_STATES),
  offerExpiresAt: IsoDate.nullable(),
  /** Set once the offer was opened into a basket. */
  basketId: Id.nullable(),
  email: z.string(),
});
export type WaitingListOffer = z.infer<typeof WaitingListOffer>;

/**
 * `POST /frontend/waiting-list/offers/:id/open {code}`: the offer's basket (made at the first opening, the same one
 * after), and the buyer signed in as the entry's login: the mailed link proved the email, as a trusted email's does.
 */
export const OpenedWaitingListOffer = FrontendSignIn.extend({ basketId: Id });
export type OpenedWaitingListOffer = z.infer<typeof OpenedWaitingListOffer>;

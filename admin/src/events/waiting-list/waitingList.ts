// The back office's waiting list (issue 31, docs/decisions/0038), apart from the screen: the counts it shows, the
// states it filters by, the form's values (the offer time in hours and minutes) and the settings they make, and
// which entries may be offered or removed by hand.
import {
  DEFAULT_WAITING_LIST_OFFER_MINUTES,
  MAX_WAITING_LIST_OFFER_MINUTES,
  MIN_WAITING_LIST_OFFER_MINUTES,
  type WaitingListEntryState,
} from "@ticketing/shared/constants";
import type {
  WaitingList,
  WaitingListCounts,
  WaitingListEntry,
  WaitingListSettings,
} from "@ticketing/shared/schemas/waiting-list";

/** How often the screen asks the list and its entries again while shown: stock comes back at any time. */
export const LIST_REFRESH_MS = 10_000;
/** The entries on one page of the table. */
export const ENTRIES_PER_PAGE = 25;

/** The counts in the order an entry goes through its states (`offering` lasts inside one write: never shown). */
export const COUNT_KEYS = [
  "waiting",
  "offered",
  "bought",
  "expired",
  "left",
  "removed",
] as const satisfies readonly (keyof WaitingListCounts)[];

/** The states the table filters by: those an entry is ever seen in. */
export const FILTER_STATES = COUNT_KEYS satisfies readonly WaitingListEntryState[];

/** What the settings form edits: the offer time split into hours and minutes, the offers' mode as a choice. */
export interface WaitingListFormValues {
  accepting: boolean;
  mode: "automatic" | "manual";
  offerHours: number;
  offerMinutes: number;
  partialOffers: boolean;
}

/** A list not switched on yet: accepting names, automatic offers of a day, no partial offers. */
export const NEW_LIST_SETTINGS: WaitingListSettings = {
  accepting: true,
  automatic: true,
  offerMinutes: DEFAULT_WAITING_LIST_OFFER_MINUTES,
  partialOffers: false,
};

/** The settings of a list (or a new list's) as the form shows them. */
export function formValuesOf(list: WaitingListSettings | WaitingList | null): WaitingListFormValues {
  const { accepting, automatic, offerMinutes, partialOffers } = list ?? NEW_LIST_SETTINGS;
  return {
    accepting,
    mode: automatic ? "automatic" : "manual",
    offerHours: Math.floor(offerMinutes / 60),
    offerMinutes: offerMinutes % 60,
    partialOffers,
  };
}

/** The offer time the form's hours and minutes make, in minutes (an empty field counts as 0). */
export const offerTimeOf = ({ offerHours, offerMinutes }: Pick<WaitingListFormValues, "offerHours" | "offerMinutes">) =>
  (Number(offerHours) || 0) * 60 + (Number(offerMinutes) || 0);

/** Whether the form's offer time is one the API takes (between 15 minutes and 14 days). */
export const isOfferTimeValid = (values: Pick<WaitingListFormValues, "offerHours" | "offerMinutes">) => {
  const minutes = offerTimeOf(values);
  return minutes >= MIN_WAITING_LIST_OFFER_MINUTES && minutes <= MAX_WAITING_LIST_OFFER_MINUTES;
};

/** The settings the form's values send (`PUT /events/:id/waiting-list`). */
export const settingsOfForm = (values: WaitingListFormValues): WaitingListSettings => ({
  accepting: values.accepting === true,
  automatic: values.mode === "automatic",
  offerMinutes: offerTimeOf(values),
  partialOffers: values.partialOffers === true,
});

/**
 * An entry still in line may be offered by hand; one in line or holding an offer its buyer has not opened yet may be
 * removed (an opened offer is the buyer's basket: the API refuses).
 */
export const canOffer = (entry: Pick<WaitingListEntry, "state">) => entry.state === "waiting";
export const canRemove = (entry: Pick<WaitingListEntry, "state" | "basketId">) =>
  entry.state === "waiting" || (entry.state === "offered" && entry.basketId === null);

/** An offer time in whole hours and minutes, for the settings' summary: `{hours, minutes}`. */
export const hoursAndMinutes = (minutes: number) => ({ hours: Math.floor(minutes / 60), minutes: minutes % 60 });

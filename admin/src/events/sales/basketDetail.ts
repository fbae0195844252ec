// What the basket page shows of a basket for support staff (docs/specification.md §2.2 basket detail): its articles'
// form answers, which actions it offers (mark a point-of-sale payment paid, resend the confirmation, download the
// tickets). The API decides each action again; these rules only choose which buttons to show.
import { type BasketStatus, SOLD_BASKET_STATUSES } from "@ticketing/shared/constants";
import { COUNTRIES } from "@ticketing/shared/countries";
import type { BasketDetail, ItemAnswer } from "@ticketing/shared/schemas/sales";
import type { PaymentIntent } from "@ticketing/shared/schemas/ticket-office";

/** Shown for an answer left empty. */
export const NO_ANSWER = "—";

/** The answers of each article, by the article's id. */
export function answersByItem(answers: BasketDetail["answers"]): ReadonlyMap<number, ItemAnswer[]> {
  return new Map(answers.map((entry) => [entry.itemId, entry.answers]));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * An answer as staff read it: "Yes"/"No" for a checkbox, a date in the back office's language (the wall-clock
 * date and time the buyer typed, never shifted by a time zone), a country's name, and `—` when left empty.
 */
export function formatAnswer(
  answer: Pick<ItemAnswer, "type" | "value">,
  intlLocale: string,
  words: { yes: string; no: string },
): string {
  const value = answer.value?.trim() ?? "";
  if (value === "") return NO_ANSWER;
  switch (answer.type) {
    case "boolean":
      return value === "true" ? words.yes : value === "false" ? words.no : value;
    case "date":
    case "dateMajor": {
      const match = ISO_DATE.exec(value);
      if (!match) return value;
      const [, year, month, day] = match.map(Number);
      return new Intl.DateTimeFormat(intlLocale, { dateStyle: "medium", timeZone: "UTC" }).format(
        new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day)),
      );
    }
    case "datetime": {
      const match = ISO_DATE_TIME.exec(value);
      if (!match) return value;
      const [, year, month, day, hours, minutes] = match.map(Number);
      return new Intl.DateTimeFormat(intlLocale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(
        new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day, hours, minutes)),
      );
    }
    case "country": {
      const country = COUNTRIES.find(([code]) => code === value.toUpperCase());
      if (!country) return value;
      return intlLocale.toLowerCase().startsWith("fr") ? country[2] : country[1];
    }
    default:
      return value;
  }
}

/** A payment at the point of sale the buyer has not paid yet: staff mark it paid once they have. */
export const isPendingPointOfSale = (intent: PaymentIntent) => intent.moduleKey === "point_of_sale" && intent.isOngoing;

/** A paid (or free) basket, or one reopened to edit its answers: its tickets admit. */
const isSold = (status: BasketStatus) => (SOLD_BASKET_STATUSES as readonly BasketStatus[]).includes(status);

/** Whether the order confirmation may be sent again: a paid basket with a billing address to send it to. */
/** A paid order with a billing address that was not erased (docs/decisions/0046: no mail goes to an erased buyer). */
export const canResendConfirmation = (basket: Pick<BasketDetail, "status" | "billingInformation">) =>
  isSold(basket.status) && basket.billingInformation !== null && !basket.billingInformation.erasedAt;

/** Whether the basket has tickets that admit: paid, with at least one article still held. */
export const hasValidTickets = (basket: Pick<BasketDetail, "status" | "items">) =>
  isSold(basket.status) && basket.items.length > 0;

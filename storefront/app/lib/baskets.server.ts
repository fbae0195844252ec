// The visitor's baskets for the current event (docs/specification.md §4: the newest one of this login and testing flag
// is reused).

import type { Basket, BasketDetail, BasketItem, HoldAgainResult } from "@ticketing/shared/schemas/ticket-office";
import { type ApiClient, ApiError } from "./api.server";
import { pickCompletedBasket, pickOpenBasket, type WizardStep, wizardRedirect } from "./basket-rules";
import type { TicketOffice } from "./ticket-office.server";

type BasketRow = Pick<Basket, "id" | "status">;

const listBaskets = (office: TicketOffice, api: ApiClient) =>
  api.get<BasketRow[]>("/frontend/baskets", { eventId: office.event.id, testing: office.testing });

export async function getBasket(api: ApiClient, id: number): Promise<BasketDetail> {
  const basket = await api.get<BasketDetail>(`/frontend/baskets/${id}`);
  return {
    ...basket,
    items: basket.items ?? [],
    paymentIntents: basket.paymentIntents ?? [],
    expiredItems: basket.expiredItems ?? [],
  };
}

/** What the buyer is told when they come back after their reservation ran out (components/hold-notice.tsx). */
export interface HoldNotice {
  restored: BasketItem[];
  unavailable: BasketItem[];
  /** Why nothing was held again (its renewals used up, the buyer's turn in a waiting room lapsed): the API's words. */
  refusal: string[];
}

/**
 * The basket being filled or paid, if any, and whether the newest basket is already paid. With `holdAgain`
 * (the buy page), articles whose reservation ran out are held again where the stock allows, and `holdNotice` says
 * which came back and which are gone.
 */
export async function loadOpenBasket(office: TicketOffice, api: ApiClient, { holdAgain = false } = {}) {
  const baskets = await listBaskets(office, api);
  const open = pickOpenBasket(baskets);
  let basket = open ? await getBasket(api, open.id) : null;
  let holdNotice: HoldNotice | null = null;
  if (holdAgain && basket && basket.expiredItems.length > 0 && office.areBasketActionsAllowed) {
    try {
      const {
        basket: held,
        restored,
        unavailable,
      } = await api.post<HoldAgainResult>(`/frontend/baskets/${basket.id}/hold-again`, {});
      basket = { ...held, expiredItems: [] };
      holdNotice = { restored, unavailable, refusal: [] };
    } catch (error) {
      // Refused (409: the basket's hold renewals are used up, or a waiting room's turn lapsed): the page says why,
      // and its articles stay given back.
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      holdNotice = { restored: [], unavailable: basket.expiredItems, refusal: error.errors };
      basket = { ...basket, expiredItems: [] };
    }
  }
  return {
    basket,
    holdNotice,
    newestIsCompleted: baskets[0] !== undefined && pickCompletedBasket(baskets.slice(0, 1)) !== null,
  };
}

/**
 * "Keep my tickets for N more minutes" (components/hold-timer.tsx, docs/decisions/0042): renews the hold of the
 * caller's basket, with their token as every basket call (the API checks the basket is theirs). Answers null, or
 * the API's words when it refuses: 409 when the renewals are used up, the basket is no longer `new`, or it holds a
 * waiting list's offer, whose time is the organiser's.
 */
export async function keepHold(api: ApiClient, basketId: number): Promise<ApiError | null> {
  try {
    await api.post<HoldAgainResult>(`/frontend/baskets/${basketId}/hold-again`, {});
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return error;
    throw error;
  }
}

/** The newest paid basket, for the confirmation page and ticket downloads. */
export async function loadCompletedBasket(office: TicketOffice, api: ApiClient) {
  const completed = pickCompletedBasket(await listBaskets(office, api));
  return completed ? getBasket(api, completed.id) : null;
}

/**
 * The visitor's open basket and newest paid one, from one listing: a payment the visitor just made (the payment
 * return page) is in one of them.
 */
export async function loadPaymentBaskets(office: TicketOffice, api: ApiClient) {
  const baskets = await listBaskets(office, api);
  const open = pickOpenBasket(baskets);
  const paid = pickCompletedBasket(baskets);
  // One after the other: two calls at once could both renew the login's token (README, "One authenticated loader").
  return {
    open: open ? await getBasket(api, open.id) : null,
    paid: paid ? await getBasket(api, paid.id) : null,
  };
}

/** The open basket, or creates one: docs/specification.md §4 creates a basket only when the first article is added. */
export async function openBasketForAdding(office: TicketOffice, api: ApiClient): Promise<number> {
  const open = pickOpenBasket(await listBaskets(office, api));
  if (open) return open.id;
  const created = await api.post<BasketDetail>("/frontend/baskets", {
    eventId: office.event.id,
    testing: office.testing,
  });
  return created.id;
}

/**
 * Wizard guard (docs/specification.md §2.3): returns the login's API client and a basket that may go through this step.
 */
export async function requireWizardBasket(office: TicketOffice, step: WizardStep) {
  // Registrations closed and nobody signed in: no basket to check out, and signing in would only lead to buy's
  // answer, given here at once.
  if (!office.isLoggedIn && !office.areBasketActionsAllowed) throw await office.registrationsClosed();
  const api = await office.requireLoginApi();
  const { basket, newestIsCompleted } = await loadOpenBasket(office, api);
  // A reservation that ran out is taken up on the buy page, which holds the articles again and says how it went.
  const target = basket?.expiredItems.length ? "buy" : wizardRedirect(basket, { step, newestIsCompleted });
  if (target === "buy" && !office.areBasketActionsAllowed) throw await office.registrationsClosed();
  if (target || !basket) throw await office.redirect(office.href(target ?? "buy"));
  return { api, basket };
}

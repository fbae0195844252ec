// The ticket office's baskets (`/frontend/…`, docs/design.md §3): every call names one of the caller's baskets, by its
// id or by a line of it, and answers 404 for anyone else's.
import { type Database, type Db, eq, schema } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import type {
  BasketCreate,
  BasketListQuery,
  BillingInformationCreate,
  CheckoutRequest,
  ExtraInfoAnswers,
} from "@ticketing/shared/schemas/frontend";
import type {
  BasketDetail,
  BasketItem,
  Basket as BasketRow,
  BillingInformation,
  CheckoutResult,
  HoldAgainResult,
  ItemForms,
  PaymentIntent,
  RemovedSelection,
} from "@ticketing/shared/schemas/ticket-office";
import { invalid, notFound } from "../../lib/errors.ts";
import { getCatalogue } from "../catalogue/catalogue.ts";
import { saveBillingInformation } from "../checkout/billing.ts";
import { checkout } from "../checkout/checkout.ts";
import { chooseModule, type PaymentDeps, startPayment } from "../checkout/payments/index.ts";
import { findEvent } from "../events/event-pages.ts";
import { assertAdmitted } from "../waiting-room/admission.ts";
import { basketItems, visitorOf } from "./basket-content.ts";
import { presentBasketDetail, presentBaskets, presentPaymentIntent } from "./basket-views.ts";
import { findLogin, findOwnedBasket, listOwnBaskets } from "./baskets.ts";
import { holdExpiredAgain } from "./expired-holds.ts";
import { basketForms, hasMissingAnswers, saveAnswers } from "./forms.ts";
import { expireIfDue, removeSelectedNode } from "./holds.ts";
import { createBasket } from "./open-basket.ts";
import { paymentIntentsOf } from "./payment-state.ts";

/** The caller's basket, its event and the caller's login that owns it; 404 for a basket of anyone else. */
export async function findBuyerBasket(db: Db, loginIds: number[], basketId: number) {
  const basket = await findOwnedBasket(db, loginIds, basketId);
  const event = await findEvent(db, basket.eventId);
  const login = await findLogin(db, loginIds, event.id, basket.testing);
  return { basket, event, login };
}

/** A line hanging off one of the caller's baskets (a selected node or code), with that basket; otherwise 404. */
export async function findBuyerLine<T extends typeof schema.selectedNodes | typeof schema.selectedPromotionCodes>(
  db: Db,
  table: T,
  loginIds: number[],
  id: number,
) {
  const row = await db.select().from(table).where(eq(table.id, id)).get();
  if (!row) throw notFound();
  return { row: row as T["$inferSelect"], ...(await findBuyerBasket(db, loginIds, row.basketId)) };
}

// What a basket shows of the organiser's texts (its articles' titles) is in the caller's `language` (docs/decisions/0043).

export async function listBuyerBaskets(
  db: Db,
  loginIds: number[],
  query: BasketListQuery,
  language: Language = "en",
): Promise<BasketRow[]> {
  const baskets = await listOwnBaskets(db, loginIds, { eventId: query.eventId ?? query.event, testing: query.testing });
  return presentBaskets(db, baskets, language);
}

export async function getBuyerBasket(
  db: Db,
  loginIds: number[],
  basketId: number,
  language: Language = "en",
): Promise<BasketDetail> {
  return presentBasketDetail(db, await findOwnedBasket(db, loginIds, basketId), language);
}

/** The caller's basket as its buyer reads it: expired at once when its reservation time is over. */
export async function readBuyerBasket(
  database: Database,
  input: { loginIds: number[]; basketId: number; now: Date; language?: Language },
): Promise<BasketDetail> {
  const basket = await findOwnedBasket(database.db, input.loginIds, input.basketId);
  // Expiry changes its lines, not the basket row: the row read is the one to present.
  await expireIfDue(database, basket, input.now);
  return presentBasketDetail(database.db, basket, input.language);
}

/** Holds the caller's expired articles again where the stock allows (expired-holds.ts), and says which. */
export async function holdBuyerBasketAgain(
  database: Database,
  input: { loginIds: number[]; basketId: number; now: Date; language?: Language },
): Promise<HoldAgainResult> {
  const { basket, event, login } = await findBuyerBasket(database.db, input.loginIds, input.basketId);
  await assertAdmitted(database, { event, login, now: input.now });
  await expireIfDue(database, basket, input.now);
  const outcome = await holdExpiredAgain(database, { event, basket, login, now: input.now, language: input.language });
  return { basket: await getBuyerBasket(database.db, input.loginIds, basket.id, input.language), ...outcome };
}

/**
 * The caller's login's open basket on the event, or a new one (the testing one when asked): one open basket per
 * login and event (docs/decisions/0036). On an event whose waiting room is on, only in the buyer's turn.
 */
export async function openBasket(
  { database }: { database: Database },
  input: { loginIds: number[]; body: BasketCreate; now: Date; language?: Language },
): Promise<BasketDetail> {
  const event = await findEvent(database.db, input.body.eventId);
  const login = await findLogin(database.db, input.loginIds, event.id, input.body.testing);
  await assertAdmitted(database, { event, login, now: input.now });
  const basket = await createBasket(database, event, login, input.now);
  return presentBasketDetail(database.db, basket, input.language);
}

export async function listBasketItems(
  db: Db,
  loginIds: number[],
  basketId: number,
  language: Language = "en",
): Promise<BasketItem[]> {
  const basket = await findOwnedBasket(db, loginIds, basketId);
  return (await basketItems(db, [basket.id], "held", language)).get(basket.id)?.items ?? [];
}

/** Takes an article (with its options) out of the caller's basket and gives its stock back. */
export async function removeBasketItem(
  database: Database,
  input: { loginIds: number[]; id: number; now: Date },
): Promise<RemovedSelection> {
  const { row, basket, event } = await findBuyerLine(database.db, schema.selectedNodes, input.loginIds, input.id);
  await removeSelectedNode(database, { event, basket, selectedNodeId: row.id, now: input.now });
  return { id: row.id, basketId: basket.id };
}

export async function saveBuyerBilling(
  database: Database,
  loginIds: number[],
  body: BillingInformationCreate,
): Promise<BillingInformation> {
  const { basketId, ...fields } = body;
  const { basket, login } = await findBuyerBasket(database.db, loginIds, basketId);
  return saveBillingInformation(database, basket, login, fields);
}

/**
 * Orders the caller's basket once every required form is answered: a payment to make (and where to make it), or,
 * for a free basket, the order validated at once and its confirmation mail queued (`onMailQueued` is told).
 */
export async function checkoutBasket(
  { database, config, onMailQueued }: { database: Database; config: PaymentDeps["config"]; onMailQueued?: () => void },
  input: {
    loginIds: number[];
    basketId: number;
    body: CheckoutRequest;
    language: Language;
    /** The origin the buyer's browser is on (PaymentToStart). */
    siteUrl: string;
    now: Date;
  },
): Promise<CheckoutResult> {
  const { basket, event, login } = await findBuyerBasket(database.db, input.loginIds, input.basketId);
  // A basket past its reservation time no longer holds its articles: it is not ordered with them.
  await expireIfDue(database, basket, input.now);
  const catalogue = await getCatalogue(database.db, event.id);
  if (await hasMissingAnswers(database.db, catalogue, basket, await visitorOf(database.db, login, basket)))
    throw invalid("errors.forms_missing");
  const deps = { database, config, onMailQueued };
  const module = await chooseModule(deps, event, basket, input.body.paymentMethod);
  const result = await checkout(database, {
    event,
    basket,
    ...input.body,
    moduleKey: module.key,
    language: input.language,
    now: input.now,
  });
  // A free basket queued its confirmation, a point-of-sale one its payment reminder.
  if (!result.paymentIntent || module.key === "point_of_sale") onMailQueued?.();
  const started = result.paymentIntent
    ? await startPayment(deps, module, {
        intent: result.paymentIntent,
        invoice: result.invoice,
        basket: result.basket,
        event,
        email: result.billing.email,
        language: input.language,
        siteUrl: input.siteUrl,
        now: input.now,
      })
    : null;
  const intent = started ? presentPaymentIntent(started, result.invoice) : null;
  return {
    basket: await getBuyerBasket(database.db, input.loginIds, basket.id, input.language),
    invoice: result.invoice,
    paymentIntent: intent,
    paymentUrl: intent?.paymentUrl ?? null,
  };
}

export async function listBasketPayments(db: Db, loginIds: number[], basketId: number): Promise<PaymentIntent[]> {
  const { basket } = await findBuyerBasket(db, loginIds, basketId);
  const rows = await paymentIntentsOf(db, [basket.id]);
  return rows.map(({ intent, invoice }) => presentPaymentIntent(intent, invoice));
}

/** The forms of each article of the caller's basket, with the answers given so far. */
export async function listBasketForms(
  db: Db,
  loginIds: number[],
  basketId: number,
  language: Language = "en",
): Promise<ItemForms[]> {
  const { basket, event, login } = await findBuyerBasket(db, loginIds, basketId);
  return basketForms(db, await getCatalogue(db, event.id), basket, await visitorOf(db, login, basket), language);
}

/** Answers an article's forms, every field checked by its rules; the article's forms as saved. */
export async function answerItemForms(
  database: Database,
  input: { loginIds: number[]; itemId: number; body: ExtraInfoAnswers; now: Date; language?: Language },
): Promise<ItemForms> {
  const { row, basket, event, login } = await findBuyerLine(
    database.db,
    schema.selectedNodes,
    input.loginIds,
    input.itemId,
  );
  return saveAnswers(database, {
    catalogue: await getCatalogue(database.db, event.id),
    event,
    basket,
    itemId: row.id,
    answers: input.body.answers,
    visitor: await visitorOf(database.db, login, basket),
    now: input.now,
    language: input.language,
  });
}

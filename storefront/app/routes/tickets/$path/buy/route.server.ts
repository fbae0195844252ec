import type { Tree } from "@ticketing/shared/schemas/ticket-office";
import { getFixedT } from "#app/i18n.server.ts";
import { type ApiClient, ApiError } from "#app/lib/api.server.ts";
import { basketLines, lineChange } from "#app/lib/basket-lines.ts";
import { buyRedirect } from "#app/lib/basket-rules.ts";
import { keepHold, loadOpenBasket, openBasketForAdding } from "#app/lib/baskets.server.ts";
import { chosenOptionIds, positiveInt } from "#app/lib/catalogue.ts";
import { holdTimerOf } from "#app/lib/hold-timer.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import { hasWaitingRoom, requireTurn } from "#app/lib/waiting-room.server.ts";
import type { Route } from "./+types/route";

/**
 * Guards of `buy` (docs/specification.md §2.3): the ticket office may change baskets, the visitor is logged in, not
 * paying.
 */
async function openBuy(args: Route.LoaderArgs | Route.ActionArgs) {
  const office = await TicketOffice.open(args);
  // docs/specification.md §5: basket modification only for previewers or when the event allows it, else 404
  // (saying so).
  if (!office.areBasketActionsAllowed) throw await office.registrationsClosed();
  const api = await office.requireLoginApi();
  return { office, api };
}

export async function loader(args: Route.LoaderArgs) {
  const { office, api } = await openBuy(args);
  // Issue 30: behind an event's waiting room, only a buyer whose turn it is chooses tickets (no API call without one).
  const place = await requireTurn(office, api);
  const { basket, holdNotice } = await loadOpenBasket(office, api, { holdAgain: true });
  const target = buyRedirect(basket);
  if (target) throw await office.redirect(office.href(target));
  const tree = await api.get<Tree>(`/frontend/events/${office.event.id}/tree`, {
    basketId: basket?.id,
    testing: office.testing,
  });
  // An admission lasts until a basket is held (the API then stops giving its end): the page says until when.
  const turnUntil = place?.state === "admitted" ? place.admittedUntil : null;
  return office.data({
    tree,
    basket,
    holdNotice,
    hold: holdTimerOf(basket, office.event.reservationMinutes, new Date()),
    turnUntil,
    areBasketActionsAllowed: office.areBasketActionsAllowed,
  });
}

/**
 * What a refused action shows, and where: beside an article, beside the promotion code field, in the basket
 * (a line's quantity), in the hold's box (keeping the tickets longer), or on top.
 */
type BuyActionData = {
  target: "article" | "promotionCode" | "basket" | "hold" | "page";
  nodeId: number | null;
  errors: string[];
};

/**
 * The quantity asked in a form: a whole number from 1 to the basket's maximum (the field's own bounds, checked
 * again here for a browser that did not), else null. The API still decides what the stock allows.
 */
function askedQuantity(form: FormData, office: TicketOffice) {
  const quantity = positiveInt(form.get("quantity"));
  return quantity !== null && quantity <= office.event.maxItemsPerBasket ? quantity : null;
}

/** Changes a basket line to the quantity asked: takes out its newest items, or adds more with the same options. */
async function changeLine(office: TicketOffice, api: ApiClient, lineKey: string, quantity: number) {
  const { basket } = await loadOpenBasket(office, api);
  const line = basket && basketLines(basket.items).find((candidate) => candidate.key === lineKey);
  // A line gone meanwhile (another tab, an expired hold): the page shows the basket as it is.
  if (!basket || !line) return;
  const { remove, add } = lineChange(line, quantity);
  for (const itemId of remove) await api.delete(`/frontend/selected-nodes/${itemId}`);
  // An article whose element is gone can still be removed, not added again.
  if (add > 0 && line.nodeId !== null)
    await api.post("/frontend/selected-nodes", {
      basketId: basket.id,
      nodeId: line.nodeId,
      optionNodeIds: line.optionNodeIds,
      quantity: add,
    });
}

export async function action(args: Route.ActionArgs) {
  const form = await readPostedForm(args.request);
  const { office, api } = await openBuy(args);
  const intent = form.get("intent");
  const nodeId = positiveInt(form.get("nodeId"));
  const lineKey = form.get("lineKey");
  const target: BuyActionData["target"] =
    intent === "addCode" || intent === "removeCode"
      ? "promotionCode"
      : intent === "keepHold"
        ? "hold"
        : nodeId
          ? "article"
          : typeof lineKey === "string"
            ? "basket"
            : "page";
  const refuse = (errors: string[], status: number) =>
    office.data<BuyActionData>({ target, nodeId, errors }, { status });
  const refuseQuantity = async () => {
    const t = getFixedT(office.language);
    return refuse([t("buy.quantityInvalid", { max: office.event.maxItemsPerBasket })], 400);
  };
  try {
    if (!office.areBasketActionsAllowed) {
      const t = getFixedT(office.language);
      return refuse([t("welcome.registrationsClosed")], 409);
    }
    if (intent === "keepHold") {
      // The buyer's own open basket, not one named by the form; none (emptied meanwhile): the page shows that.
      const { basket } = await loadOpenBasket(office, api);
      const refusal = basket && (await keepHold(api, basket.id));
      if (refusal) return refuse(refusal.errors, refusal.status);
    } else if (intent === "removeLine" && typeof lineKey === "string") {
      await changeLine(office, api, lineKey, 0);
    } else if (intent === "updateLine" && typeof lineKey === "string") {
      const quantity = askedQuantity(form, office);
      if (quantity === null) return refuseQuantity();
      await changeLine(office, api, lineKey, quantity);
    } else if (intent === "addCode") {
      const value = String(form.get("promotionCode") ?? "").trim();
      if (!value) {
        const t = getFixedT(office.language);
        return refuse([t("forms.errors.required")], 400);
      }
      // A code may come before the first article: the basket is opened for it (prices then include it).
      const basketId = await openBasketForAdding(office, api);
      await api.post("/frontend/selected-promotion-codes", { basketId, value });
    } else if (intent === "removeCode") {
      const codeId = positiveInt(form.get("codeId"));
      if (codeId) await api.delete(`/frontend/selected-promotion-codes/${codeId}`);
    } else if (nodeId) {
      const quantity = askedQuantity(form, office);
      if (quantity === null) return refuseQuantity();
      // One call: the API reuses the visitor's open basket on the event, or opens one for this first article.
      await api.post("/frontend/selected-nodes", {
        eventId: office.event.id,
        testing: office.testing,
        nodeId,
        optionNodeIds: chosenOptionIds(form),
        quantity,
      });
    }
  } catch (error) {
    // A 409 behind a waiting room may be a turn not come yet or passed: then the room says so (and takes a place).
    if (error instanceof ApiError && error.status === 409 && hasWaitingRoom(office)) await requireTurn(office, api);
    // 409 sold out or already active, 400 a choice or code the API refuses: shown where it was made, with or
    // without JavaScript.
    if (error instanceof ApiError) return refuse(error.errors, error.status);
    throw error;
  }
  return office.redirect(office.href("buy"));
}

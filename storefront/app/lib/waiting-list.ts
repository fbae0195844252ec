// What the ticket office makes of an event's waiting list (issue 31, docs/decisions/0038): where its pages live, who
// may join and for how many, and what an entry or an offer mailed to its buyer shows. Pure, so it is tested alone.
import type { PublicInfos } from "@ticketing/shared/schemas/events";
import type { TreeNode } from "@ticketing/shared/schemas/ticket-office";
import type { OwnWaitingListEntry, WaitingListOffer } from "@ticketing/shared/schemas/waiting-list";
import { isGroup } from "./catalogue";

/** The buyer's entries page, under the office's base; with `nodeId`, the page that joins the list for that article. */
export function waitingListHref(base: string, nodeId?: number) {
  const page = `${base}/waiting-list`;
  return nodeId === undefined ? page : `${page}?${new URLSearchParams({ article: String(nodeId) })}`;
}

/** An offer's page, as its mail links it: the code alone authorises it. */
export const offerHref = (base: string, entryId: number, code: string) =>
  `${base}/waiting-list/offers/${entryId}?${new URLSearchParams({ code })}`;

/** Whether buyers may join the event's list now (PublicInfos: null when the event has none). */
export const isWaitingListAccepting = (event: Pick<PublicInfos, "waitingList">) =>
  event.waitingList?.accepting === true;

/**
 * The most tickets one entry may ask for: an offer opens into a basket, so the basket's maximum, and the event's cap
 * per buyer when it has one (the API checks the cap against what the buyer already has).
 */
export function joinQuantityMax(event: Pick<PublicInfos, "maxItemsPerBasket" | "maxTicketsPerBuyer">) {
  const cap = event.maxTicketsPerBuyer ?? event.maxItemsPerBasket;
  return Math.max(1, Math.min(cap, event.maxItemsPerBasket));
}

/** The quantity posted with a join: a whole number within 1..max, else null. */
export function joinQuantity(value: FormDataEntryValue | null, max: number) {
  const quantity = Number(value ?? 1);
  return Number.isSafeInteger(quantity) && quantity >= 1 && quantity <= max ? quantity : null;
}

/** The articles of a subtree, in the order the buy page shows them. */
function articlesOf(node: TreeNode): TreeNode[] {
  return node.children.flatMap((child) =>
    child.category === "article" ? [child] : isGroup(child) ? articlesOf(child) : [],
  );
}

/** Whether every article the buyer can see is sold out (and there is at least one): the whole event is. */
export function isAllSoldOut(root: TreeNode | null) {
  const articles = root ? articlesOf(root) : [];
  return articles.length > 0 && articles.every((article) => article.stock?.display === "out_of_stock");
}

/** Whether an offer's time is over at `now`, whatever the sweep has marked yet. */
const hasLapsed = (offerExpiresAt: string | null, now: Date) =>
  offerExpiresAt !== null && new Date(offerExpiresAt).getTime() <= now.getTime();

/** A buyer's entry, as its line on their page says it. */
export type EntryView = "waiting" | "offerMailed" | "offerOpened" | "bought" | "lapsed" | "left" | "removed";

export function entryView(
  entry: Pick<OwnWaitingListEntry, "state" | "basketId" | "offerExpiresAt">,
  now: Date,
): EntryView {
  switch (entry.state) {
    case "waiting":
    case "offering":
      return "waiting";
    case "offered":
      if (hasLapsed(entry.offerExpiresAt, now)) return "lapsed";
      return entry.basketId === null ? "offerMailed" : "offerOpened";
    case "expired":
      return "lapsed";
    default:
      return entry.state;
  }
}

/** An entry its buyer may still leave: in line, or offered and not opened yet (an opened offer is a basket). */
export const canLeave = (entry: Pick<OwnWaitingListEntry, "state" | "basketId">) =>
  entry.state === "waiting" || (entry.state === "offered" && entry.basketId === null);

/** An offer as its mail's link shows it: to buy or decline, opened already, or over (and why). */
export type OfferView = "open" | "opened" | "bought" | "lapsed" | "declined" | "closed";

export function offerView(
  offer: Pick<WaitingListOffer, "state" | "basketId" | "offerExpiresAt">,
  now: Date,
): OfferView {
  switch (offer.state) {
    case "offered":
      if (hasLapsed(offer.offerExpiresAt, now)) return "lapsed";
      return offer.basketId === null ? "open" : "opened";
    case "bought":
      return "bought";
    case "expired":
      return "lapsed";
    case "left":
      return "declined";
    default:
      return "closed";
  }
}

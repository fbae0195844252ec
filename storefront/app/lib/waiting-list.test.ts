import type { TreeNode } from "@ticketing/shared/schemas/ticket-office";
import { describe, expect, it } from "vitest";
import {
  canLeave,
  entryView,
  isAllSoldOut,
  isWaitingListAccepting,
  joinQuantity,
  joinQuantityMax,
  offerHref,
  offerView,
  waitingListHref,
} from "./waiting-list";

const NOW = new Date("2026-11-28T12:00:00.000Z");
const LATER = "2026-11-28T13:00:00.000Z";
const EARLIER = "2026-11-28T11:00:00.000Z";

const node = (fields: Partial<TreeNode>) => ({ children: [], stock: null, ...fields }) as unknown as TreeNode;
const article = (display: "available" | "low" | "out_of_stock") =>
  node({ category: "article", stock: { display, remaining: 0, maximum: 1 } });

describe("the waiting list's links", () => {
  it("keeps the office's base (a preview's too) and encodes the article and the code", () => {
    expect(waitingListHref("/tickets/demo")).toBe("/tickets/demo/waiting-list");
    expect(waitingListHref("/tickets/preview/demo", 5)).toBe("/tickets/preview/demo/waiting-list?article=5");
    expect(offerHref("/tickets/demo", 40, "a+b/c")).toBe("/tickets/demo/waiting-list/offers/40?code=a%2Bb%2Fc");
  });
});

describe("joining", () => {
  it("is offered while the event's list takes names, not without a list", () => {
    expect(isWaitingListAccepting({ waitingList: { accepting: true } })).toBe(true);
    expect(isWaitingListAccepting({ waitingList: { accepting: false } })).toBe(false);
    expect(isWaitingListAccepting({ waitingList: null })).toBe(false);
  });

  it("asks for at most the event's cap per buyer, and never more than a basket holds", () => {
    expect(joinQuantityMax({ maxItemsPerBasket: 10, maxTicketsPerBuyer: 4 })).toBe(4);
    expect(joinQuantityMax({ maxItemsPerBasket: 10, maxTicketsPerBuyer: null })).toBe(10);
    expect(joinQuantityMax({ maxItemsPerBasket: 3, maxTicketsPerBuyer: 8 })).toBe(3);
  });

  it("reads a posted quantity within 1..max (1 when none is posted)", () => {
    expect(joinQuantity(null, 4)).toBe(1);
    expect(joinQuantity("4", 4)).toBe(4);
    for (const bad of ["0", "5", "1.5", "two", "-1"]) expect(joinQuantity(bad, 4)).toBeNull();
  });

  it("sees a whole event sold out only when every article it shows is, through its groups", () => {
    const group = (children: TreeNode[]) => node({ category: "multiple_choice", children });
    expect(isAllSoldOut(node({ children: [article("out_of_stock"), group([article("out_of_stock")])] }))).toBe(true);
    expect(isAllSoldOut(node({ children: [article("out_of_stock"), group([article("low")])] }))).toBe(false);
    expect(isAllSoldOut(node({ children: [] }))).toBe(false);
    expect(isAllSoldOut(null)).toBe(false);
  });
});

describe("an entry's line", () => {
  const entry = (state: string, fields: object = {}) =>
    ({ state, basketId: null, offerExpiresAt: null, ...fields }) as Parameters<typeof entryView>[0];

  it("says where each entry stands, an offer past its time as lapsed before the sweep marks it", () => {
    expect(entryView(entry("waiting"), NOW)).toBe("waiting");
    expect(entryView(entry("offered", { offerExpiresAt: LATER }), NOW)).toBe("offerMailed");
    expect(entryView(entry("offered", { offerExpiresAt: LATER, basketId: 7 }), NOW)).toBe("offerOpened");
    expect(entryView(entry("offered", { offerExpiresAt: EARLIER }), NOW)).toBe("lapsed");
    expect(entryView(entry("expired"), NOW)).toBe("lapsed");
    expect(entryView(entry("removed"), NOW)).toBe("removed");
  });

  it("may be left while in line or offered and not opened, not once a basket holds it", () => {
    expect(canLeave(entry("waiting"))).toBe(true);
    expect(canLeave(entry("offered"))).toBe(true);
    expect(canLeave(entry("offered", { basketId: 7 }))).toBe(false);
    expect(canLeave(entry("bought"))).toBe(false);
  });
});

describe("an offer's page", () => {
  const offer = (state: string, fields: object = {}) =>
    ({ state, basketId: null, offerExpiresAt: LATER, ...fields }) as Parameters<typeof offerView>[0];

  it("offers Buy now and Decline while open, Continue once opened, and says why it is over", () => {
    expect(offerView(offer("offered"), NOW)).toBe("open");
    expect(offerView(offer("offered", { basketId: 7 }), NOW)).toBe("opened");
    expect(offerView(offer("offered", { offerExpiresAt: EARLIER }), NOW)).toBe("lapsed");
    expect(offerView(offer("expired"), NOW)).toBe("lapsed");
    expect(offerView(offer("left"), NOW)).toBe("declined");
    expect(offerView(offer("bought"), NOW)).toBe("bought");
    expect(offerView(offer("removed"), NOW)).toBe("closed");
  });
});

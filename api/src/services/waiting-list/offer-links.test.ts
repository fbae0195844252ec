// An offer from the waiting list reached from its mail (issue 31, docs/decisions/0038): its link read with its code,
// opened into one basket however often (the buyer signed in as the entry's login), paid, declined, or lapsed.
import { describe, expect, it } from "vitest";
import {
  addToBasket,
  checkOut,
  createBuyer,
  DRIVERS,
  expectStockCountersMatchRows,
  FRENCH,
  loginAs,
  payOnDemoPage,
  submitBilling,
  type TestContext,
  useTestContext,
} from "../../test-support.ts";
import { releaseExpiredHolds } from "../baskets/baskets.ts";
import { renderMail } from "../mail/templates/registry.ts";
import {
  entryRow,
  freeOne,
  join,
  limitRow,
  mailsAbout,
  OFFER_MINUTES,
  provedBuyer,
  type SoldOutSale,
  soldOutSale,
} from "./entries.fixtures.ts";

/** The offer mail of an entry, rendered; its link and the code the link carries. */
async function offerMail(ctx: TestContext, entryId: number) {
  const [mail] = await mailsAbout(ctx, "waiting_list_offer", entryId);
  if (!mail) throw new Error(`no offer mail for entry ${entryId}`);
  const rendered = await renderMail({ database: ctx.database, config: ctx.config }, mail);
  const link = /http\S+\/waiting-list\/offers\/\S+/.exec(rendered.text)?.[0] ?? "";
  return { mail, rendered, link, code: new URL(link).searchParams.get("code") ?? "" };
}

const readOffer = (ctx: TestContext, id: number, code: string) =>
  ctx.call("GET", `/frontend/waiting-list/offers/${id}?code=${encodeURIComponent(code)}`);
const act = (ctx: TestContext, id: number, action: "open" | "decline", code: string, token?: string) =>
  ctx.call("POST", `/frontend/waiting-list/offers/${id}/${action}`, { token, body: { code } });

/** Two buyers in line for one each on a sold-out article of `stock`. */
async function twoInLine(ctx: TestContext, stock = 1) {
  const sale = await soldOutSale(ctx, stock);
  const first = await provedBuyer(ctx, sale, "first");
  const second = await provedBuyer(ctx, sale, "second");
  const firstEntry = (await join(ctx, sale, first, 1)).body.id as number;
  const secondEntry = (await join(ctx, sale, second, 1)).body.id as number;
  return { sale, first, second, firstEntry, secondEntry };
}

const stateOf = async (ctx: TestContext, id: number) => (await entryRow(ctx, id))?.state;

describe.each(DRIVERS)("an offer from the waiting list (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("opens from its mail's link into one basket however often, its lines holding the offer's stock, the buyer signed in", async () => {
    const sale: SoldOutSale = await soldOutSale(ctx, 2);
    const buyer = await provedBuyer(ctx, sale);
    const joined = await join(ctx, sale, buyer, 2, FRENCH);
    // One unit free is not enough for two: the entry waits, and no one else may take it.
    await freeOne(ctx, sale);
    expect(await stateOf(ctx, joined.body.id)).toBe("waiting");
    await freeOne(ctx, sale);
    const entry = await entryRow(ctx, joined.body.id);
    expect(entry).toMatchObject({ state: "offered", offeredQuantity: 2 });

    // The mail, in the buyer's language: the article, the quantity, until when, and the ticket office's page.
    const { rendered, link, code } = await offerMail(ctx, joined.body.id);
    expect(rendered.subject).toBe(`Des billets vous sont réservés : « Entry » – ${sale.event.frontendTitle}`);
    expect(rendered.text).toContain("2 × « Entry »");
    expect(rendered.text).toMatch(/vous sont réservés jusqu’au \S+ \d+ \S+ \d{4} à \d\d:\d\d/);
    expect(link).toBe(
      `http://localhost:3000/tickets/${sale.event.frontendPath}/waiting-list/offers/${joined.body.id}?code=${code}`,
    );
    expect(rendered.html).toContain(`href="${link}"`);

    // Reading it changes nothing.
    const read = await readOffer(ctx, joined.body.id, code);
    expect(read).toMatchObject({
      status: 200,
      body: {
        id: joined.body.id,
        state: "offered",
        quantity: 2,
        offered_quantity: 2,
        basket_id: null,
        email: buyer.email,
      },
    });
    expect(await entryRow(ctx, joined.body.id)).toEqual(entry);

    const opened = await act(ctx, joined.body.id, "open", code);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.login).toMatchObject({ id: buyer.loginId, email: buyer.email });
    const again = await act(ctx, joined.body.id, "open", code);
    expect(again.body.basket_id).toBe(opened.body.basket_id);
    expect((await entryRow(ctx, joined.body.id))?.basketId).toBe(opened.body.basket_id);

    // The basket is the buyer's, in the session the opening gave: the offered articles, held until the offer ends.
    const basket = await ctx.call("GET", `/frontend/baskets/${opened.body.basket_id}`, {
      token: opened.body.access_token,
    });
    expect(basket.status, JSON.stringify(basket.body)).toBe(200);
    expect(basket.body).toMatchObject({ status: "new", expires_at: entry?.offerExpiresAt, total: 5000 });
    expect(basket.body.items.map((item: { title: string }) => item.title)).toEqual(["Entry", "Entry"]);
    expect(await limitRow(ctx, sale)).toMatchObject({ maximum: 2, used: 2, waiting: 0 });
    await expectStockCountersMatchRows(ctx);

    // Opened, it is no longer the list's to decline: the basket's lines are removed instead.
    expect((await act(ctx, joined.body.id, "decline", code)).body.errors).toEqual(["This offer is no longer open"]);
  });

  it("is bought when the offer's basket is paid", async () => {
    const { sale, first, firstEntry } = await twoInLine(ctx);
    await freeOne(ctx, sale);
    const { code } = await offerMail(ctx, firstEntry);
    const opened = await act(ctx, firstEntry, "open", code, first.token);
    const buyer = { token: opened.body.access_token as string, basketId: opened.body.basket_id as number };
    expect((await submitBilling(ctx, buyer)).status).toBe(201);
    const checkout = await checkOut(ctx, buyer);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    await payOnDemoPage(ctx, checkout.body.payment_url);
    expect(await stateOf(ctx, firstEntry)).toBe("bought");
    expect((await readOffer(ctx, firstEntry, code)).body).toMatchObject({ state: "bought", basket_id: buyer.basketId });
    // Its link still leads to the same basket, now an order.
    expect((await act(ctx, firstEntry, "open", code)).body.basket_id).toBe(buyer.basketId);
    await expectStockCountersMatchRows(ctx);
  });

  it("answers a wrong code, another offer's code and an entry never offered as unknown (404)", async () => {
    const { sale, firstEntry, secondEntry } = await twoInLine(ctx);
    await freeOne(ctx, sale);
    const { code } = await offerMail(ctx, firstEntry);
    const wrong = code.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    for (const [id, given] of [
      [firstEntry, wrong],
      [secondEntry, code],
      [firstEntry + 1000, code],
    ] as const) {
      expect((await readOffer(ctx, id, given)).status).toBe(404);
      expect((await act(ctx, id, "open", given)).status).toBe(404);
      expect((await act(ctx, id, "decline", given)).status).toBe(404);
    }
    expect((await readOffer(ctx, firstEntry, "short")).status).toBe(400);
    expect((await ctx.call("GET", `/frontend/waiting-list/offers/${firstEntry}`)).status).toBe(400);
    expect(await stateOf(ctx, firstEntry)).toBe("offered");
    expect(await stateOf(ctx, secondEntry)).toBe("waiting");
  });

  it("declined, goes to the next in line in the same write", async () => {
    const { sale, second, firstEntry, secondEntry } = await twoInLine(ctx);
    await freeOne(ctx, sale);
    const { code } = await offerMail(ctx, firstEntry);
    const declined = await act(ctx, firstEntry, "decline", code);
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body).toMatchObject({ id: firstEntry, state: "left", basket_id: null });
    expect(await entryRow(ctx, secondEntry)).toMatchObject({ state: "offered", offeredQuantity: 1 });
    expect((await mailsAbout(ctx, "waiting_list_offer", secondEntry)).map((mail) => mail.to)).toEqual([second.email]);
    expect(await limitRow(ctx, sale)).toMatchObject({ used: 1, waiting: 0 });
    await expectStockCountersMatchRows(ctx);
    // Declined: neither declined again nor opened.
    expect((await act(ctx, firstEntry, "decline", code)).body.errors).toEqual(["This offer is no longer open"]);
    expect((await act(ctx, firstEntry, "open", code)).body.errors).toEqual(["This offer is no longer open"]);
  });

  it("lapsed, goes to the next in line at the sweep; its link then says so, and an opened offer's basket lapses with it", async () => {
    const { sale, firstEntry, secondEntry } = await twoInLine(ctx);
    await freeOne(ctx, sale);
    const first = await entryRow(ctx, firstEntry);
    const { code } = await offerMail(ctx, firstEntry);
    const lapsedAt = new Date(Date.parse(first?.offerExpiresAt ?? "") + 60_000);
    await releaseExpiredHolds(ctx.database, lapsedAt);
    expect(await stateOf(ctx, firstEntry)).toBe("expired");
    expect(await entryRow(ctx, secondEntry)).toMatchObject({ state: "offered", offeredAt: lapsedAt.toISOString() });
    await expectStockCountersMatchRows(ctx);
    expect((await readOffer(ctx, firstEntry, code)).body.state).toBe("expired");
    expect(await act(ctx, firstEntry, "open", code)).toMatchObject({
      status: 409,
      body: { errors: ["This offer has lapsed: the tickets went to the next person on the waiting list"] },
    });
    expect((await act(ctx, firstEntry, "decline", code)).status).toBe(409);

    // The second offer is opened, then runs out unpaid: its basket's lines give the stock back, the entry expires.
    const { code: secondCode } = await offerMail(ctx, secondEntry);
    const opened = await act(ctx, secondEntry, "open", secondCode);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const ends = new Date(lapsedAt.getTime() + (OFFER_MINUTES + 1) * 60_000);
    await releaseExpiredHolds(ctx.database, ends);
    expect(await stateOf(ctx, secondEntry)).toBe("expired");
    expect(await limitRow(ctx, sale)).toMatchObject({ used: 0, waiting: 0 });
    await expectStockCountersMatchRows(ctx);
  });

  it("keeps the preview's own list: staff join with their account's email, the testing counters move, the offer opens into a testing basket", async () => {
    const sale = await soldOutSale(ctx, 1);
    const staff = await loginAs(ctx, sale.email, sale.password);
    // The preview's stock is its own: a testing holder takes it; a real buyer could still add.
    const holder = await createBuyer(ctx, sale.event.id, sale.moduleId, staff);
    await addToBasket(ctx, holder, sale.article.node.id);
    const previewer = await createBuyer(ctx, sale.event.id, sale.moduleId, staff);
    const joined = await ctx.call("POST", "/frontend/waiting-list", {
      token: previewer.token,
      body: { event_id: sale.event.id, node_id: sale.article.node.id, testing: true },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(joined.body).toMatchObject({ state: "waiting", position: 1 });
    expect(await entryRow(ctx, joined.body.id)).toMatchObject({ email: sale.email, testing: true });
    expect(await limitRow(ctx, sale)).toMatchObject({ used: 1, waiting: 0, testingUsed: 1, testingWaiting: 1 });
    // The preview's entries are on its own list, not the live one.
    expect(
      (
        await ctx.call("GET", `/frontend/waiting-list?event_id=${sale.event.id}&testing=true`, {
          token: previewer.token,
        })
      ).body,
    ).toHaveLength(1);
    expect(
      (await ctx.call("GET", `/frontend/waiting-list?event_id=${sale.event.id}`, { token: previewer.token })).body,
    ).toEqual([]);

    const [line] = (await ctx.call("GET", `/frontend/baskets/${holder.basketId}`, { token: holder.token })).body.items;
    expect((await ctx.call("DELETE", `/frontend/selected-nodes/${line.id}`, { token: holder.token })).status).toBe(200);
    expect(await stateOf(ctx, joined.body.id)).toBe("offered");
    const { rendered, link, code } = await offerMail(ctx, joined.body.id);
    expect(link).toContain(`/tickets/preview/${sale.event.frontendPath}/waiting-list/offers/${joined.body.id}?code=`);
    expect(rendered.text).toContain("preview mode");
    const opened = await act(ctx, joined.body.id, "open", code);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const basket = await ctx.call("GET", `/frontend/baskets/${opened.body.basket_id}`, {
      token: opened.body.access_token,
    });
    expect(basket.body).toMatchObject({ testing: true, status: "new" });
    expect(await limitRow(ctx, sale)).toMatchObject({ used: 1, testingUsed: 1, testingWaiting: 0 });
    await expectStockCountersMatchRows(ctx);
  });
});

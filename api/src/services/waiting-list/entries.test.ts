// A buyer's entries on the waiting list (issue 31, docs/decisions/0038): joining a sold-out article, the refusals,
// the position, leaving, and a freed unit going to the entry in the write that frees it.
import { and, eq, run, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import {
  addToBasket,
  createBuyer,
  DRIVERS,
  expectStockCountersMatchRows,
  FRENCH,
  lastMail,
  type TestContext,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";
import {
  entryRow,
  freeOne,
  join,
  limitRow,
  mailsAbout,
  openList,
  provedBuyer,
  soldOutSale,
} from "./entries.fixtures.ts";

/** Changes the event's list, or deletes it (null). */
const setList = (ctx: TestContext, eventId: number, values: { accepting: boolean } | null) =>
  ctx.database.transaction(function* (tx) {
    const list = eq(schema.waitingLists.eventId, eventId);
    yield* run(
      values
        ? tx.update(schema.waitingLists).set(values).where(list).run()
        : tx.delete(schema.waitingLists).where(list).run(),
    );
  });

describe.each(DRIVERS)("a buyer's waiting list entries (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("joins a sold-out article's list: 201, its position in line, its quantity set aside, a confirmation mail", async () => {
    const sale = await soldOutSale(ctx, 2);
    const first = await provedBuyer(ctx, sale);
    const second = await provedBuyer(ctx, sale);

    const joined = await join(ctx, sale, first, 2);
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(joined.body).toMatchObject({
      event_id: sale.event.id,
      node_id: sale.article.node.id,
      title: "Entry",
      quantity: 2,
      state: "waiting",
      position: 1,
      offered_quantity: null,
      basket_id: null,
    });
    const after = await join(ctx, sale, second, 1, FRENCH);
    expect(after.body).toMatchObject({ state: "waiting", position: 2, quantity: 1 });
    expect(await limitRow(ctx, sale)).toMatchObject({ maximum: 2, used: 2, waiting: 3, testingWaiting: 0 });
    await expectStockCountersMatchRows(ctx);

    // The buyer's own entries, with their positions; another buyer sees none of them.
    const own = await ctx.call("GET", `/frontend/waiting-list?event_id=${sale.event.id}`, { token: second.token });
    expect(own.body).toEqual([after.body]);
    const other = await provedBuyer(ctx, sale);
    expect(
      (await ctx.call("GET", `/frontend/waiting-list?event_id=${sale.event.id}`, { token: other.token })).body,
    ).toEqual([]);

    // The confirmation, in the buyer's language: the article, the quantity, the position, the way to leave.
    const [mail] = await mailsAbout(ctx, "waiting_list_joined", after.body.id);
    expect(mail).toMatchObject({ to: second.email, language: "fr" });
    const rendered = await renderMail({ database: ctx.database, config: ctx.config }, mail as never);
    expect(rendered.subject).toBe(`Vous êtes sur la liste d’attente pour « Entry » – ${sale.event.frontendTitle}`);
    expect(rendered.text).toContain("1 × « Entry »");
    expect(rendered.text).toContain("Votre position dans la file : 2.");
    expect(rendered.text).toContain(`http://localhost:3000/tickets/${sale.event.frontendPath}/waiting-list`);
    const [english] = await mailsAbout(ctx, "waiting_list_joined", joined.body.id);
    const firstMail = await renderMail({ database: ctx.database, config: ctx.config }, english as never);
    expect(firstMail.text).toContain("for 2 × “Entry”");
    expect(firstMail.text).toContain("Your position in line: 1.");

    // The article's and the event's French titles, written since (issue 34): the French mail reads them.
    const { events, nodeConfigurations: configurations } = schema;
    await ctx.database.db.update(events).set({ frontendTitleFr: "Fête 2030" }).where(eq(events.id, sale.event.id));
    await ctx.database.db
      .update(configurations)
      .set({ titleFr: "Entrée" })
      .where(and(eq(configurations.eventId, sale.event.id), eq(configurations.title, "Entry")));
    const translated = await renderMail({ database: ctx.database, config: ctx.config }, mail as never);
    expect(translated.subject).toBe("Vous êtes sur la liste d’attente pour « Entrée » – Fête 2030");
    expect(translated.text).toContain("1 × « Entrée »");
    expect((await renderMail({ database: ctx.database, config: ctx.config }, english as never)).text).toContain(
      "for 2 × “Entry”",
    );
  });

  it("refuses an article still on sale, a guest, a quantity over the caps, a second entry, and a list closed or absent", async () => {
    const sale = await soldOutSale(ctx, 2);
    const buyer = await provedBuyer(ctx, sale);
    await writeEventRow(ctx, sale.event.id, { maxTicketsPerBuyer: 3 });

    // Still on sale for the quantity asked: one unit comes free, one can be added.
    await freeOne(ctx, sale);
    expect((await join(ctx, sale, buyer, 1)).body.errors).toEqual([
      "“Entry” is still on sale: add it to your basket instead",
    ]);
    // …but two cannot: the buyer may wait for two.
    const guest = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const refusedGuest = await join(ctx, sale, guest, 2);
    expect(refusedGuest).toMatchObject({
      status: 409,
      body: { errors: ["Sign in with your email address to join the waiting list"] },
    });
    // The event's cap per buyer, less what they hold: 3, one in a basket, 2 left.
    const basket = await ctx.call("POST", "/frontend/baskets", {
      token: buyer.token,
      body: { event_id: sale.event.id },
    });
    await addToBasket(ctx, { token: buyer.token, basketId: basket.body.id }, sale.article.node.id);
    const tooMany = await join(ctx, sale, buyer, 3);
    expect(tooMany).toMatchObject({
      status: 409,
      body: { errors: ["You can ask for at most 2 on the waiting list for this event"] },
    });
    expect((await join(ctx, sale, buyer, 2)).status).toBe(201);
    const twice = await join(ctx, sale, buyer, 1);
    expect(twice).toMatchObject({
      status: 409,
      body: { errors: ["You are already on the waiting list for “Entry”"] },
    });
    // A buyer holding nothing may ask for no more than the event's cap either.
    const other = await provedBuyer(ctx, sale);
    expect((await join(ctx, sale, other, 11)).status).toBe(409);
    await expectStockCountersMatchRows(ctx);

    // A list that takes no names; an event without a list.
    const closedSale = await soldOutSale(ctx, 1, { accepting: false });
    const closedBuyer = await provedBuyer(ctx, closedSale);
    expect(await join(ctx, closedSale, closedBuyer)).toMatchObject({
      status: 409,
      body: { errors: ["This waiting list is not taking new names"] },
    });
    const listless = await soldOutSale(ctx, 1);
    await setList(ctx, listless.event.id, null);
    const listlessBuyer = await provedBuyer(ctx, listless);
    expect(await join(ctx, listless, listlessBuyer)).toMatchObject({
      status: 404,
      body: { errors: ["This event has no waiting list"] },
    });
    // Registrations closed: as for an add.
    await writeEventRow(ctx, closedSale.event.id, { registrationsEndDate: "2020-01-01T00:00:00.000Z" });
    await setList(ctx, closedSale.event.id, { accepting: true });
    expect((await join(ctx, closedSale, closedBuyer)).status).toBe(409);
  });

  it("leaves: the quantity set aside comes back, and no one else can leave or see the entry", async () => {
    const sale = await soldOutSale(ctx, 1);
    const buyer = await provedBuyer(ctx, sale);
    const other = await provedBuyer(ctx, sale);
    const joined = await join(ctx, sale, buyer, 3);
    expect(joined.status).toBe(201);
    const behind = await join(ctx, sale, other, 1);
    expect(behind.body.position).toBe(2);
    expect(await limitRow(ctx, sale)).toMatchObject({ waiting: 4 });

    // Another buyer's DELETE is a 404, as an unknown id.
    expect((await ctx.call("DELETE", `/frontend/waiting-list/${joined.body.id}`, { token: other.token })).status).toBe(
      404,
    );
    const left = await ctx.call("DELETE", `/frontend/waiting-list/${joined.body.id}`, { token: buyer.token });
    expect(left.status, JSON.stringify(left.body)).toBe(200);
    expect(left.body).toMatchObject({ id: joined.body.id, state: "left", position: null });
    expect(await limitRow(ctx, sale)).toMatchObject({ waiting: 1, used: 1 });
    await expectStockCountersMatchRows(ctx);
    // The one behind moves up.
    const mine = await ctx.call("GET", `/frontend/waiting-list?event_id=${sale.event.id}`, { token: other.token });
    expect(mine.body.map((entry: { position: number }) => entry.position)).toEqual([1]);
    // Leaving twice: no longer in line.
    expect(
      (await ctx.call("DELETE", `/frontend/waiting-list/${joined.body.id}`, { token: buyer.token })).body.errors,
    ).toEqual(["This waiting list entry is no longer waiting"]);
    // Once left, the buyer may join again, at the back.
    expect((await join(ctx, sale, buyer, 1)).body).toMatchObject({ state: "waiting", position: 2 });
  });

  it("gives a freed unit to the first entry in the write that frees it: offered, mailed, and no public add takes it", async () => {
    const sale = await soldOutSale(ctx, 2);
    const buyer = await provedBuyer(ctx, sale);
    const joined = await join(ctx, sale, buyer, 1);
    const latecomer = await createBuyer(ctx, sale.event.id, sale.moduleId);

    await freeOne(ctx, sale);

    const entry = await entryRow(ctx, joined.body.id);
    expect(entry).toMatchObject({ state: "offered", offeredQuantity: 1, basketId: null });
    expect(Date.parse(entry?.offerExpiresAt ?? "") - Date.parse(entry?.offeredAt ?? "")).toBe(60 * 60_000);
    expect((await mailsAbout(ctx, "waiting_list_offer", joined.body.id)).map((mail) => mail.to)).toEqual([buyer.email]);
    expect((await lastMail(ctx, "waiting_list_offer"))?.language).toBe("en");
    const add = await ctx.call("POST", "/frontend/selected-nodes", {
      token: latecomer.token,
      body: { basket_id: latecomer.basketId, node_id: sale.article.node.id },
    });
    expect(add.status).toBe(409);
    expect(await limitRow(ctx, sale)).toMatchObject({ used: 2, waiting: 0 });
    await expectStockCountersMatchRows(ctx);
    const own = await ctx.call("GET", `/frontend/waiting-list?event_id=${sale.event.id}`, { token: buyer.token });
    expect(own.body[0]).toMatchObject({ state: "offered", position: null, offered_quantity: 1 });

    // Those who join now line up behind no one but those still waiting on this event's list, each reading their own.
    const next = [await provedBuyer(ctx, sale), await provedBuyer(ctx, sale)];
    for (const buyer of next) expect((await join(ctx, sale, buyer, 1)).status).toBe(201);
    const positions = [];
    for (const buyer of next)
      positions.push(
        (await ctx.call("GET", `/frontend/waiting-list?event_id=${sale.event.id}`, { token: buyer.token })).body[0]
          .position,
      );
    expect(positions).toEqual([1, 2]);
  });

  it("tells the buy page whether the event has a list and whether it takes names", async () => {
    const sale = await soldOutSale(ctx, 1);
    const infos = (path: string) => ctx.call("GET", `/events/public-infos?path=${path}`);
    expect((await infos(sale.event.frontendPath)).body.waiting_list).toEqual({ accepting: true });
    await setList(ctx, sale.event.id, null);
    expect((await infos(sale.event.frontendPath)).body.waiting_list).toBeNull();
    await openList(ctx, sale.event.id, { accepting: false });
    expect((await infos(sale.event.frontendPath)).body.waiting_list).toEqual({ accepting: false });
    const all = await ctx.call("GET", "/events/public-infos");
    expect(all.body.find((event: { id: number }) => event.id === sale.event.id).waiting_list).toEqual({
      accepting: false,
    });
  });
});

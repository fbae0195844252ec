// The organiser's waiting list over HTTP (issue 31, docs/decisions/0038): switched on and set within bounds, refused
// to an event whose buyers cannot prove an email, its entries counted and listed in line with their positions, an
// entry offered by hand out of line (only what free stock covers) or removed (what it waited for, or held, going back
// or on to the next); none of it for staff of another unit. Entries are put in line as a join writes them
// (organiser.fixtures.ts). The list's export: sales/exports/waiting-list.test.ts.
import { and, asc, eq, run, schema, sql } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import {
  createBuyer,
  DRIVERS,
  expectStockCountersMatchRows,
  FRENCH,
  signedInMember,
  signedInUser,
  type TestContext,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";
import { expireHolds, listedSale as listedFixture, SETTINGS } from "./organiser.fixtures.ts";

const NO_COUNTS = { waiting: 0, offered: 0, bought: 0, expired: 0, left: 0, removed: 0 };

const statesOf = async (ctx: TestContext, eventId: number) =>
  (
    await ctx.database.db
      .select({ state: schema.waitingListEntries.state })
      .from(schema.waitingListEntries)
      .where(eq(schema.waitingListEntries.eventId, eventId))
      .orderBy(asc(schema.waitingListEntries.id))
      .all()
  ).map((row) => row.state);

const offerMailsOf = (ctx: TestContext, entryId: number) =>
  ctx.database.db
    .select()
    .from(schema.mailOutbox)
    .where(
      and(
        eq(schema.mailOutbox.kind, "waiting_list_offer"),
        sql`json_extract(${schema.mailOutbox.payload}, '$.entry_id') = ${entryId}`,
      ),
    )
    .all();

/** A buyer's add of one article: the API's status (201, or 409 when nothing is free for the public). */
const publicAdd = async (ctx: TestContext, buyer: { token: string; basketId: number }, nodeId: number) =>
  (
    await ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, node_id: nodeId },
    })
  ).status;

describe.each(DRIVERS)("the organiser's waiting list (%s)", (driver) => {
  const ctx = useTestContext(driver);

  const listedSale = (stock: number, options: Parameters<typeof listedFixture>[2] = {}) =>
    listedFixture(ctx, stock, options);

  describe("settings", () => {
    it("are none until switched on, then read back as set and changed; out of bounds is a 400", async () => {
      const sale = await listedSale(5);
      const none = await ctx.call("GET", sale.base, { token: sale.organiser });
      expect(none).toMatchObject({ status: 404, body: { errors: ["This event has no waiting list"] } });
      const frenchNone = await ctx.call("GET", sale.base, { token: sale.organiser, headers: FRENCH });
      expect(frenchNone.status).toBe(404);
      expect(frenchNone.body.errors[0]).toMatch(/liste d’attente/);

      const on = await sale.put({ automatic: false, offer_minutes: 90, partial_offers: true });
      expect(on.status, JSON.stringify(on.body)).toBe(200);
      const expected = {
        event_id: sale.event.id,
        accepting: true,
        automatic: false,
        offer_minutes: 90,
        partial_offers: true,
        counts: NO_COUNTS,
      };
      expect(on.body).toMatchObject(expected);
      expect(typeof on.body.updated_at).toBe("string");
      expect((await ctx.call("GET", sale.base, { token: sale.organiser })).body).toMatchObject(expected);

      const changed = await sale.put({ accepting: false, offer_minutes: 24 * 60 });
      expect(changed.body).toMatchObject({ accepting: false, automatic: true, offer_minutes: 24 * 60 });

      for (const body of [
        { ...SETTINGS, offer_minutes: 14 },
        { ...SETTINGS, offer_minutes: 14 * 24 * 60 + 1 },
        { ...SETTINGS, offer_minutes: 60.5 },
        { ...SETTINGS, automatic: "yes" },
        { accepting: true },
        { ...SETTINGS, surprise: 1 },
      ]) {
        const refused = await ctx.call("PUT", sale.base, { token: sale.organiser, body });
        expect(refused.status, JSON.stringify(body)).toBe(400);
      }
      expect((await ctx.call("GET", sale.base, { token: sale.organiser })).body).toMatchObject({
        accepting: false,
        offer_minutes: 24 * 60,
      });
    });

    it("is refused (409) to an event whose buyers cannot sign in by email or through a third party", async () => {
      const sale = await listedSale(5, { emailAccess: false });
      const refused = await sale.put();
      expect(refused).toMatchObject({ status: 409 });
      expect(refused.body.errors[0]).toMatch(/sign in with their email/);
      const french = await ctx.call("PUT", sale.base, { token: sale.organiser, body: SETTINGS, headers: FRENCH });
      expect(french.body.errors[0]).toMatch(/connectent avec leur e-mail/);
      expect((await ctx.call("GET", sale.base, { token: sale.organiser })).status).toBe(404);

      // Through a third party, the email is proved too.
      await ctx.database.transaction(function* (tx) {
        yield* run(
          tx
            .insert(schema.eventAccessMethods)
            .values({ eventId: sale.event.id, method: "third_party", secretKey: "k".repeat(32) })
            .run(),
        );
      });
      expect((await sale.put()).status).toBe(200);
    });

    it("is changed on a closed event by superusers only, and still read by its organisers", async () => {
      const sale = await listedSale(5);
      expect((await sale.put()).status).toBe(200);
      await writeEventRow(ctx, sale.event.id, { status: "closed" });
      const locked = await sale.put({ accepting: false });
      expect(locked.status).toBe(409);
      expect((await ctx.call("GET", sale.base, { token: sale.organiser })).body.accepting).toBe(true);
      const { token: admin } = await signedInUser(ctx, "root", { isSuperuser: true });
      expect((await sale.put({ accepting: false }, admin)).body.accepting).toBe(false);
    });

    it("offers the entries already due in the write that switches automatic offers on", async () => {
      const sale = await listedSale(1, { holding: 1 });
      expect((await sale.put({ automatic: false })).status).toBe(200);
      const entry = await sale.inLine();
      await expireHolds(ctx, [sale.holder.basketId]);
      // A manual list: the freed unit waits for the organiser, and nobody on the buy page can take it.
      expect(await statesOf(ctx, sale.event.id)).toEqual(["waiting"]);
      const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
      expect(await publicAdd(ctx, buyer, sale.article.node.id)).toBe(409);

      const automatic = await sale.put({ automatic: true });
      expect(automatic.body.counts).toEqual({ ...NO_COUNTS, offered: 1 });
      expect(await statesOf(ctx, sale.event.id)).toEqual(["offered"]);
      expect(await offerMailsOf(ctx, entry.id)).toHaveLength(1);
      await expectStockCountersMatchRows(ctx);
    });
  });

  describe("entries", () => {
    it("are counted by state and listed in order of joining, each waiting one with its position", async () => {
      const sale = await listedSale(1, { holding: 1 });
      expect((await sale.put()).status).toBe(200);
      const [a, b, c] = [await sale.inLine({ quantity: 2 }), await sale.inLine(), await sale.inLine()];
      const previewed = await sale.inLine({ testing: true });
      expect((await ctx.call("DELETE", `${sale.base}/entries/${b.id}`, { token: sale.organiser })).status).toBe(200);

      const list = await ctx.call("GET", sale.base, { token: sale.organiser });
      expect(list.body.counts).toEqual({ ...NO_COUNTS, waiting: 2, removed: 1 });
      const preview = await ctx.call("GET", `${sale.base}?testing=1`, { token: sale.organiser });
      // Preview mode's list has its stock to itself, all free: its entry was offered by the removal's write.
      expect(preview.body.counts).toEqual({ ...NO_COUNTS, offered: 1 });

      const all = await ctx.call("GET", `${sale.base}/entries`, { token: sale.organiser });
      expect(all.status, JSON.stringify(all.body)).toBe(200);
      expect(all.body.total).toBe(3);
      expect(
        all.body.data.map((e: { id: number; position: number | null; state: string }) => [e.id, e.position, e.state]),
      ).toEqual([
        [a.id, 1, "waiting"],
        [b.id, null, "removed"],
        [c.id, 2, "waiting"],
      ]);
      expect(all.body.data[0]).toMatchObject({
        event_id: sale.event.id,
        email: a.email,
        language: "en",
        testing: false,
        node_id: null,
        title: "Entry",
        quantity: 2,
        offered_quantity: null,
        offer_expires_at: null,
        basket_id: null,
      });

      const waiting = await ctx.call("GET", `${sale.base}/entries?state=waiting`, { token: sale.organiser });
      expect(waiting.body.data.map((e: { position: number }) => e.position)).toEqual([1, 2]);
      expect(waiting.body.total).toBe(2);
      const second = await ctx.call("GET", `${sale.base}/entries?page=2&per_page=1`, { token: sale.organiser });
      expect(second.body).toMatchObject({ total: 3, data: [{ id: b.id }] });
      const tested = await ctx.call("GET", `${sale.base}/entries?testing=true`, { token: sale.organiser });
      expect(tested.body).toMatchObject({
        total: 1,
        data: [{ id: previewed.id, position: null, state: "offered", testing: true }],
      });
      for (const bad of ["state=lost", "per_page=501", "page=0", "testing=maybe"])
        expect((await ctx.call("GET", `${sale.base}/entries?${bad}`, { token: sale.organiser })).status, bad).toBe(400);
      await expectStockCountersMatchRows(ctx);
    });

    it("on a manual list, the organiser offers entry 2 before entry 1 once stock frees, and not before", async () => {
      const sale = await listedSale(1, { holding: 1 });
      expect((await sale.put({ automatic: false, offer_minutes: 120 })).status).toBe(200);
      const first = await sale.inLine();
      const second = await sale.inLine();
      const offer = (entryId: number, headers: Record<string, string> = {}) =>
        ctx.call("POST", `${sale.base}/entries/${entryId}/offer`, { token: sale.organiser, headers });

      const noStock = await offer(second.id);
      expect(noStock).toMatchObject({
        status: 409,
        body: { errors: ["Not enough stock is free to offer 1 of “Entry”"] },
      });
      expect((await offer(second.id, FRENCH)).body.errors[0]).toMatch(/pas assez de stock libre/);
      expect(await statesOf(ctx, sale.event.id)).toEqual(["waiting", "waiting"]);

      await expireHolds(ctx, [sale.holder.basketId]);
      expect(await statesOf(ctx, sale.event.id)).toEqual(["waiting", "waiting"]);
      const offered = await offer(second.id);
      expect(offered.status, JSON.stringify(offered.body)).toBe(200);
      expect(offered.body).toMatchObject({ id: second.id, state: "offered", offered_quantity: 1, position: null });
      expect(Date.parse(offered.body.offer_expires_at) - Date.parse(offered.body.offered_at)).toBe(120 * 60_000);
      expect(await offerMailsOf(ctx, second.id)).toHaveLength(1);
      expect(await offerMailsOf(ctx, first.id)).toHaveLength(0);

      const listed = await ctx.call("GET", `${sale.base}/entries`, { token: sale.organiser });
      expect(listed.body.data.map((e: { state: string; position: number | null }) => [e.state, e.position])).toEqual([
        ["waiting", 1],
        ["offered", null],
      ]);
      // Offered once: a second offer is refused, and entry 1 finds no stock left.
      const again = await offer(second.id);
      expect(again).toMatchObject({ status: 409, body: { errors: ["This waiting list entry is no longer waiting"] } });
      expect((await offer(first.id)).status).toBe(409);
      expect(await offerMailsOf(ctx, second.id)).toHaveLength(1);
      await expectStockCountersMatchRows(ctx);
    });

    it("with partial offers, an offer by hand holds what the stock has room for, when it cannot meet the quantity", async () => {
      const sale = await listedSale(2, { holding: 2 });
      expect((await sale.put({ automatic: false, partial_offers: true })).status).toBe(200);
      const entry = await sale.inLine({ quantity: 3 });
      const offer = () => ctx.call("POST", `${sale.base}/entries/${entry.id}/offer`, { token: sale.organiser });
      expect((await offer()).status).toBe(409);
      await expireHolds(ctx, [sale.holder.basketId]);
      const offered = await offer();
      expect(offered.body).toMatchObject({ state: "offered", quantity: 3, offered_quantity: 2 });
      await expectStockCountersMatchRows(ctx);
    });

    it("removing a waiting entry gives its quantity back: the public can add again once nothing waits", async () => {
      const sale = await listedSale(1, { holding: 1 });
      expect((await sale.put({ automatic: false })).status).toBe(200);
      const entry = await sale.inLine();
      await expireHolds(ctx, [sale.holder.basketId]);
      const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
      expect(await publicAdd(ctx, buyer, sale.article.node.id)).toBe(409);

      const removed = await ctx.call("DELETE", `${sale.base}/entries/${entry.id}`, { token: sale.organiser });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect(removed.body).toMatchObject({ id: entry.id, state: "removed", position: null });
      await expectStockCountersMatchRows(ctx);
      expect(await publicAdd(ctx, buyer, sale.article.node.id)).toBe(201);
      // Removed once: neither removed nor offered again.
      const again = await ctx.call("DELETE", `${sale.base}/entries/${entry.id}`, { token: sale.organiser });
      expect(again.status).toBe(409);
      expect((await ctx.call("POST", `${sale.base}/entries/${entry.id}/offer`, { token: sale.organiser })).status).toBe(
        409,
      );
      await expectStockCountersMatchRows(ctx);
    });

    it("removing an offered entry hands its held stock to the next entry when the list is automatic", async () => {
      const sale = await listedSale(1, { holding: 1 });
      expect((await sale.put()).status).toBe(200);
      const first = await sale.inLine();
      const second = await sale.inLine();
      await expireHolds(ctx, [sale.holder.basketId]);
      expect(await statesOf(ctx, sale.event.id)).toEqual(["offered", "waiting"]);

      const removed = await ctx.call("DELETE", `${sale.base}/entries/${first.id}`, { token: sale.organiser });
      expect(removed.body).toMatchObject({ id: first.id, state: "removed" });
      expect(await statesOf(ctx, sale.event.id)).toEqual(["removed", "offered"]);
      expect(await offerMailsOf(ctx, second.id)).toHaveLength(1);
      const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
      expect(await publicAdd(ctx, buyer, sale.article.node.id)).toBe(409);
      const list = await ctx.call("GET", sale.base, { token: sale.organiser });
      expect(list.body.counts).toEqual({ ...NO_COUNTS, offered: 1, removed: 1 });
      await expectStockCountersMatchRows(ctx);
    });

    it("are neither seen nor acted on by staff of another unit, nor through another event's path", async () => {
      const sale = await listedSale(1, { holding: 1 });
      expect((await sale.put()).status).toBe(200);
      const entry = await sale.inLine();
      const other = await listedSale(1);
      expect((await other.put()).status).toBe(200);
      const { token: stranger } = await signedInUser(ctx, "stranger");
      const calls = (base: string, entryId: number) =>
        [
          ["GET", base],
          ["PUT", base],
          ["GET", `${base}/entries`],
          ["POST", `${base}/entries/${entryId}/offer`],
          ["DELETE", `${base}/entries/${entryId}`],
        ] as const;
      for (const [method, path] of calls(sale.base, entry.id)) {
        const answer = await ctx.call(method, path, { token: stranger, body: method === "PUT" ? SETTINGS : undefined });
        expect([403, 404], `${method} ${path}`).toContain(answer.status);
        expect((await ctx.call(method, path, { body: method === "PUT" ? SETTINGS : undefined })).status).toBe(401);
      }
      // The other event's organiser cannot reach this entry through their own event.
      for (const [method, path] of calls(other.base, entry.id).slice(3))
        expect((await ctx.call(method, path, { token: other.organiser })).status, `${method} ${path}`).toBe(404);
      expect(await statesOf(ctx, sale.event.id)).toEqual(["waiting"]);

      // A member of the event's unit sees it.
      const member = await signedInMember(ctx, sale.event.unitId);
      expect((await ctx.call("GET", sale.base, { token: member.token })).status).toBe(200);
      await expectStockCountersMatchRows(ctx);
    });
  });
});

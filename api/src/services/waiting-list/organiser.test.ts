// The organiser's waiting list over HTTP (issue 31, docs/decisions/0038): switched on and set within bounds, refused
// to an event whose buyers cannot prove an email, its entries counted and listed in line with their positions, an
// entry offered by hand out of line (only what free stock covers) or removed (what it waited for, or held, going back
// or on to the next), exported as csv and xlsx; none of it for staff of another unit. Entries are put in line as a
// join writes them (the entry, its stocks, its quantity counted as waiting), in one transaction.
import { and, asc, type Database, eq, run, schema, sql } from "@ticketing/db";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import {
  addToBasket,
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  download,
  expectStockCountersMatchRows,
  FRENCH,
  jsonParam,
  loginAs,
  signedInMember,
  signedInUser,
  type TestContext,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";
import { releaseExpiredHolds } from "../baskets/baskets.ts";

const SETTINGS = { accepting: true, automatic: true, offer_minutes: 60, partial_offers: false };
const NO_COUNTS = { waiting: 0, offered: 0, bought: 0, expired: 0, left: 0, removed: 0 };

let people = 0;
/**
 * A buyer with a proved email in line for `quantity` of the stocks `limitIds`, as a join writes it: the entry, its
 * stocks, and its quantity counted as waiting on them, in one transaction.
 */
async function putInLine(
  database: Database,
  eventId: number,
  limitIds: number[],
  options: { quantity?: number; testing?: boolean } = {},
) {
  const { quantity = 1, testing = false } = options;
  people += 1;
  const email = `in-line-${people}-${Date.now()}@example.org`;
  return database.transaction(function* (tx) {
    const login = yield* run(
      tx
        .insert(schema.frontendLogins)
        .values({
          eventId,
          testing,
          method: "trusted_email",
          email,
          username: email,
          validatedAt: "2026-01-01T00:00:00Z",
        })
        .returning()
        .get(),
    );
    const entry = yield* run(
      tx
        .insert(schema.waitingListEntries)
        .values({ eventId, loginId: login.id, email, testing, title: "Entry", quantity })
        .returning()
        .get(),
    );
    for (const limitId of limitIds) {
      yield* run(tx.insert(schema.waitingListEntryLimits).values({ entryId: entry.id, limitId }).run());
      yield* run(
        tx
          .update(schema.nodeLimits)
          .set(
            testing
              ? { testingWaiting: sql`${schema.nodeLimits.testingWaiting} + ${quantity}` }
              : { waiting: sql`${schema.nodeLimits.waiting} + ${quantity}` },
          )
          .where(eq(schema.nodeLimits.id, limitId))
          .run(),
      );
    }
    return entry;
  });
}

/** Ends the holds of these baskets a second ago and sweeps them, as time passing would. */
async function expireHolds(ctx: TestContext, basketIds: number[]) {
  await ctx.database.transaction(function* (tx) {
    for (const id of basketIds)
      yield* run(
        tx
          .update(schema.baskets)
          .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
          .where(eq(schema.baskets.id, id))
          .run(),
      );
  });
  await releaseExpiredHolds(ctx.database, new Date());
}

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

  /**
   * A public event of `stock` whose buyers sign in by email (unless `emailAccess` is false), its organiser signed
   * in, and, with `holding`, a buyer holding that many of the article.
   */
  async function listedSale(stock: number, options: { emailAccess?: boolean; holding?: number } = {}) {
    const sale = await createOnSaleEvent(ctx, { stock });
    if (options.emailAccess !== false)
      await ctx.database.transaction(function* (tx) {
        yield* run(
          tx.insert(schema.eventAccessMethods).values({ eventId: sale.event.id, method: "trusted_email" }).run(),
        );
      });
    const organiser = await loginAs(ctx, sale.email, sale.password);
    const base = `/events/${sale.event.id}/waiting-list`;
    const put = (settings: Record<string, unknown> = {}, token = organiser) =>
      ctx.call("PUT", base, { token, body: { ...SETTINGS, ...settings } });
    const holder = await createBuyer(ctx, sale.event.id, sale.moduleId);
    for (let i = 0; i < (options.holding ?? 0); i++) await addToBasket(ctx, holder, sale.article.node.id);
    const inLine = (opts: { quantity?: number; testing?: boolean } = {}) =>
      putInLine(ctx.database, sale.event.id, [sale.article.limit.id], opts);
    return { ...sale, organiser, base, put, holder, inLine };
  }

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

  describe("the export", () => {
    it("writes one row per entry in line, as csv and xlsx, in English and French, for who sees the event", async () => {
      const sale = await listedSale(1, { holding: 1 });
      expect((await sale.put()).status).toBe(200);
      const first = await sale.inLine({ quantity: 1 });
      const second = await sale.inLine({ quantity: 3 });
      await sale.inLine({ testing: true });
      await expireHolds(ctx, [sale.holder.basketId]);
      const filter = (extra: Record<string, unknown> = {}) => jsonParam({ event_id: sale.event.id, ...extra });

      const csv = await download(ctx, `/exports/waiting-list?format=csv&filter=${filter()}`, sale.organiser);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(csv.headers.get("content-disposition")).toMatch(/filename="waiting-list-.*\.csv"/);
      const lines = (await csv.text())
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter(Boolean);
      const [header, ...rows] = lines.map((line) => line.split(","));
      expect(header).toEqual([
        "Position",
        "Email",
        "Article",
        "Quantity",
        "State",
        "Offered quantity",
        "Offered at",
        "Offer expires at",
        "Joined at",
      ]);
      expect(rows.map((row) => row.slice(0, 6))).toEqual([
        ["", first.email, "Entry", "1", "Offered", "1"],
        ["1", second.email, "Entry", "3", "Waiting", ""],
      ]);
      expect(rows[0]?.[6]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0[12]:00$/);
      expect(rows[1]?.[8]).toMatch(/^\d{4}-\d{2}-\d{2} /);

      const preview = await download(
        ctx,
        `/exports/waiting-list?format=csv&filter=${filter({ testing: true })}`,
        sale.organiser,
      );
      expect((await preview.text()).split("\r\n").filter(Boolean)).toHaveLength(2);
      const waitingOnly = await download(
        ctx,
        `/exports/waiting-list?format=csv&filter=${filter({ state: "waiting" })}`,
        sale.organiser,
      );
      const waitingRows = (await waitingOnly.text()).split("\r\n").filter(Boolean).slice(1);
      expect(waitingRows.map((line) => line.split(",").slice(0, 2))).toEqual([["1", second.email]]);

      const xlsx = await download(ctx, `/exports/waiting-list?format=xlsx&filter=${filter()}`, sale.organiser, FRENCH);
      expect(xlsx.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
      expect(sheet.name).toBe("Liste d'attente");
      const values = (index: number) => (sheet.getRow(index).values as ExcelJS.CellValue[]).slice(1);
      expect(values(1).slice(0, 5)).toEqual(["Position", "E-mail", "Article", "Quantité", "État"]);
      expect(values(2).slice(1, 6)).toEqual([first.email, "Entry", 1, "Offert", 1]);
      expect(values(3).slice(0, 5)).toEqual([1, second.email, "Entry", 3, "En attente"]);
      expect(sheet.getRow(2).getCell(7).type).toBe(ExcelJS.ValueType.Date);

      // The event must be named, be one the caller sees, and the filters hold what they may.
      expect((await download(ctx, "/exports/waiting-list?format=csv", sale.organiser)).status).toBe(400);
      const { token: stranger } = await signedInUser(ctx, "stranger");
      expect((await download(ctx, `/exports/waiting-list?format=csv&filter=${filter()}`, stranger)).status).toBe(404);
      for (const bad of [{ state: "lost" }, { testing: "maybe" }])
        expect(
          (await download(ctx, `/exports/waiting-list?format=csv&filter=${filter(bad)}`, sale.organiser)).status,
        ).toBe(400);
    });
  });
});

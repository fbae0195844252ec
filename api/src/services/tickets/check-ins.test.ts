// Ticket check-in at the door (issue 17, docs/decisions/0027-ticket-check-in.md): a sold ticket is let in once, even
// when scanned on two devices at the same instant; every other ticket is refused with its reason; the list and its
// figures agree; staff of the event's unit only.
// The list of tickets and its export are in check-in-list.test.ts.
import { createDatabase, type Database, eq, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app.ts";
import { checkOut, DRIVERS, payOnDemoPage, readyBuyer, signedInMember, signedInUser } from "../../test-support.ts";
import { useCheckInDoor } from "./check-ins.fixtures.ts";
import { createTicketCode, newTicketSigningKey, ticketKeysOf } from "./ticket-codes.ts";

describe.each(DRIVERS)("ticket check-in (%s)", (driver) => {
  const { ctx, keys, event, order, scan, counts } = useCheckInDoor(driver);

  it("checks a sold ticket in (201, counted), then answers when and by whom for a second scan", async () => {
    const { sale, staff } = await event();
    const { basket, lines, codes } = await order(sale, { count: 2 });
    expect(basket?.status).toBe("validated");
    expect(await counts(sale.event.id, staff)).toEqual({ sold: 2, checked_in: 0 });

    const first = await scan(sale.event.id, staff, codes[0] as string);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      outcome: "checked_in",
      reason: null,
      ticket: {
        id: lines[0]?.id,
        basket_id: basket?.id,
        reference: basket?.unikey,
        title: "Entry",
        holder_name: "Ada Lovelace",
        testing: false,
      },
      check_in: { checked_in_by_email: sale.email },
      counts: { sold: 2, checked_in: 1 },
    });

    // Another member of the unit scans the same ticket: it is already in, since the first scan, by its owner.
    const member = await signedInMember(ctx, sale.event.unitId);
    const second = await scan(sale.event.id, member.token, codes[0] as string);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      outcome: "already_checked_in",
      reason: null,
      ticket: first.body.ticket,
      check_in: first.body.check_in,
      counts: { sold: 2, checked_in: 1 },
    });
    expect(await counts(sale.event.id, member.token)).toEqual({ sold: 2, checked_in: 1 });
    // The code as typed from the PDF: spaces and line breaks around it are nothing.
    expect((await scan(sale.event.id, staff, `  ${codes[1]}\n`)).status).toBe(201);
    expect(await counts(sale.event.id, staff)).toEqual({ sold: 2, checked_in: 2 });
  });

  describe("two devices scanning at the same instant", () => {
    let other: Database;
    let otherApp: ReturnType<typeof createApp>;
    beforeAll(() => {
      // A second connection on the same file stands for a second server (WORKERS, a replica).
      other = createDatabase({ url: ctx.config.databaseUrl, driver });
      otherApp = createApp({ database: other, config: ctx.config, ticketKeys: keys() });
    });
    afterAll(async () => other.close());

    it("lets the ticket in exactly once among 20 scans, through two servers", async () => {
      const { sale, staff } = await event();
      const { codes, lines } = await order(sale);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          scan(sale.event.id, staff, codes[0] as string, undefined, index % 2 ? otherApp : ctx.app),
        ),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      expect(answers.filter((answer) => answer.body.outcome === "already_checked_in")).toHaveLength(19);
      const winner = answers.find((answer) => answer.status === 201)?.body.check_in;
      for (const answer of answers) expect(answer.body.check_in).toEqual(winner);
      const rows = await ctx.database.db
        .select()
        .from(schema.checkIns)
        .where(eq(schema.checkIns.selectedNodeId, lines[0]?.id as number))
        .all();
      expect(rows).toHaveLength(1);
      expect(await counts(sale.event.id, staff)).toEqual({ sold: 1, checked_in: 1 });
    });
  });

  it("refuses a forged, altered or truncated code as invalid_code (200), and never answers a 500", async () => {
    const { sale, staff } = await event();
    const { codes } = await order(sale);
    const genuine = codes[0] as string;
    const [payload, signature] = genuine.split(".") as [string, string];
    const otherKey = ticketKeysOf(newTicketSigningKey());
    const forged = createTicketCode(otherKey, { eventId: sale.event.id, basketId: 1, itemId: 1 });
    const altered = `${Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), i: 999 }),
    ).toString("base64url")}.${signature}`;
    for (const code of [forged, altered, genuine.slice(0, -4), payload, "not a ticket", "..", "a".repeat(2000)]) {
      const answer = await scan(sale.event.id, staff, code);
      expect(answer.status, code).toBe(200);
      expect(answer.body).toEqual({
        outcome: "refused",
        reason: "invalid_code",
        ticket: null,
        check_in: null,
        counts: { sold: 1, checked_in: 0 },
      });
    }
    // Not a code at all: the request is wrong (400 with a message), not the ticket.
    for (const body of [{}, { code: "" }, { code: 12 }, { code: "x".repeat(2001) }, { code: "x", extra: 1 }]) {
      const bad = await ctx.call("POST", `/events/${sale.event.id}/check-ins`, { token: staff, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.errors.length).toBeGreaterThan(0);
    }
  });

  it("refuses a genuine ticket of another event as other_event, showing nothing of it", async () => {
    const { sale, staff } = await event();
    const elsewhere = await event();
    const { codes } = await order(elsewhere.sale);
    const answer = await scan(sale.event.id, staff, codes[0] as string);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: "refused", reason: "other_event", ticket: null, check_in: null });
    // At its own door it comes in.
    expect((await scan(elsewhere.sale.event.id, elsewhere.staff, codes[0] as string)).status).toBe(201);
  });

  it("refuses a refunded article, and every ticket of a refunded basket", async () => {
    const { sale, staff } = await event();
    const partly = await order(sale, { count: 2 });
    const refund = (basketId: number, body: Record<string, unknown>) =>
      ctx.call("POST", `/baskets/${basketId}/refunds`, { token: staff, body });
    const [kept, refunded] = partly.lines.map((line) => line.id);
    expect((await refund(partly.buyer.basketId, { item_ids: [refunded], reason: "Cannot come" })).status).toBe(201);
    const whole = await order(sale, { count: 1 });
    // Checked in before its basket was refunded: the refund wins at the door.
    expect((await scan(sale.event.id, staff, whole.codes[0] as string)).status).toBe(201);
    expect((await refund(whole.buyer.basketId, { reason: "Event moved" })).status).toBe(201);

    const refusedLine = await scan(sale.event.id, staff, partly.codes[1] as string);
    expect(refusedLine.status).toBe(200);
    expect(refusedLine.body).toMatchObject({ outcome: "refused", reason: "refunded", ticket: { id: refunded } });
    expect((await scan(sale.event.id, staff, whole.codes[0] as string)).body).toMatchObject({
      outcome: "refused",
      reason: "refunded",
    });
    const admitted = await scan(sale.event.id, staff, partly.codes[0] as string);
    expect(admitted.body).toMatchObject({ outcome: "checked_in", ticket: { id: kept } });
    // Only what is still sold is counted: the kept article, in.
    expect(admitted.body.counts).toEqual({ sold: 1, checked_in: 1 });
  });

  it("refuses as cancelled an unpaid basket (waiting for its payment, or never checked out) and a released line", async () => {
    const { sale, staff } = await event();
    const waiting = await order(sale, { pay: false });
    expect(waiting.basket?.status).toBe("payment_in_progress");
    const open = await order(sale, { checkOut: false });
    expect(open.basket?.status).toBe("new");
    const released = await readyBuyer(ctx, sale, { count: 2 });
    const [gone, stays] = await ctx.database.db
      .select()
      .from(schema.selectedNodes)
      .where(eq(schema.selectedNodes.basketId, released.basketId))
      .all();
    const removed = await ctx.call("DELETE", `/frontend/selected-nodes/${gone?.id}`, { token: released.token });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const paid = await checkOut(ctx, released);
    if (paid.body.payment_url) await payOnDemoPage(ctx, paid.body.payment_url);
    const code = (basketId: number, itemId: number) =>
      createTicketCode(keys(), { eventId: sale.event.id, basketId, itemId });

    for (const ticket of [waiting.codes[0], open.codes[0], code(released.basketId, gone?.id as number)]) {
      const answer = await scan(sale.event.id, staff, ticket as string);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ outcome: "refused", reason: "cancelled" });
    }
    // A genuine code naming a line that does not exist admits nobody either.
    expect((await scan(sale.event.id, staff, code(released.basketId, 999_999))).body.reason).toBe("cancelled");
    expect((await scan(sale.event.id, staff, code(released.basketId, stays?.id as number))).status).toBe(201);
    expect(await counts(sale.event.id, staff)).toEqual({ sold: 1, checked_in: 1 });
  });

  it("admits a preview's test ticket only at the preview's door, and a real ticket only at the real door", async () => {
    const { sale, staff } = await event();
    const test = await order(sale, { previewBy: staff });
    expect(test.basket).toMatchObject({ testing: true, status: "validated" });
    const real = await order(sale);

    expect((await scan(sale.event.id, staff, test.codes[0] as string)).body).toMatchObject({
      outcome: "refused",
      reason: "wrong_mode",
      ticket: { testing: true },
    });
    expect((await scan(sale.event.id, staff, real.codes[0] as string, true)).body).toMatchObject({
      outcome: "refused",
      reason: "wrong_mode",
      ticket: { testing: false },
    });
    const previewed = await scan(sale.event.id, staff, test.codes[0] as string, true);
    expect(previewed.status).toBe(201);
    expect(previewed.body.counts).toEqual({ sold: 1, checked_in: 1 });
    // The preview's figures and the real door's stay apart.
    expect(await counts(sale.event.id, staff)).toEqual({ sold: 1, checked_in: 0 });
    expect(await counts(sale.event.id, staff, true)).toEqual({ sold: 1, checked_in: 1 });
  });

  it("is for staff of the event's unit and superusers: 404 for others, 401 signed out", async () => {
    const { sale, staff } = await event();
    const { codes } = await order(sale, { count: 3 });
    const stranger = await signedInUser(ctx, "stranger");
    const member = await signedInMember(ctx, sale.event.unitId);
    const superuser = await signedInUser(ctx, "root", { isSuperuser: true });
    const paths = [`/events/${sale.event.id}/check-ins`, `/events/${sale.event.id}/check-ins/counts`];

    expect((await scan(sale.event.id, undefined, codes[0] as string)).status).toBe(401);
    expect((await scan(sale.event.id, stranger.token, codes[0] as string)).status).toBe(404);
    expect((await scan(999_999, staff, codes[0] as string)).status).toBe(404);
    for (const path of paths) {
      expect((await ctx.call("GET", path)).status).toBe(401);
      expect((await ctx.call("GET", path, { token: stranger.token })).status).toBe(404);
    }
    // Nothing was checked in by the refused callers; then each kind of staff may.
    expect(await counts(sale.event.id, staff)).toEqual({ sold: 3, checked_in: 0 });
    for (const [index, token] of [staff, member.token, superuser.token].entries()) {
      expect((await scan(sale.event.id, token, codes[index] as string)).status).toBe(201);
      for (const path of paths) expect((await ctx.call("GET", path, { token })).status).toBe(200);
    }
  });
});

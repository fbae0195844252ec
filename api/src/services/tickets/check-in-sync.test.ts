// Offline check-in (issue 35, docs/decisions/0048-offline-check-in.md): a door's scans sent when the network is back
// are admitted as live scans at their own time; a retry counts nothing twice; a ticket scanned on two devices is
// reported once per device; a scan time the server cannot believe is refused for that scan alone.
import { eq, schema } from "@ticketing/db";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app.ts";
import { DRIVERS, signedInMember, signedInUser } from "../../test-support.ts";
import { useCheckInDoor } from "./check-ins.fixtures.ts";
import { createTicketCode, newTicketSigningKey, ticketKeysOf } from "./ticket-codes.ts";

/** The server's clock in these tests: the sync's checks of a scan's time read it, never the machine's. */
const NOW = new Date("2030-07-01T21:00:00.000Z");
const minutesBefore = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

describe.each(DRIVERS)("offline check-in sync (%s)", (driver) => {
  const { ctx, keys, event, order, counts } = useCheckInDoor(driver);
  let app: ReturnType<typeof createApp>;
  beforeAll(() => {
    app = createApp({ database: ctx.database, config: ctx.config, ticketKeys: keys(), now: () => NOW });
  });

  async function sync(eventId: number, token: string, body: unknown) {
    const response = await app.request(`/api/v1/events/${eventId}/check-ins/sync`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
    return { status: response.status, body: (await response.json()) as any };
  }
  const doubles = async (eventId: number, token: string) =>
    (await ctx.call("GET", `/events/${eventId}/check-ins/doubles`, { token })).body;
  const checkInRows = () => ctx.database.db.select().from(schema.checkIns).all();

  it("checks in each scan at the device's time, and a retry of the same batch changes nothing", async () => {
    const { sale, staff } = await event();
    const { lines, codes } = await order(sale, { count: 3 });
    const batch = {
      device_id: "door-a-0001",
      scans: codes.map((code, index) => ({ code, scanned_at: minutesBefore(30 - index) })),
    };
    const first = await sync(sale.event.id, staff, batch);
    expect(first.status).toBe(200);
    expect(first.body.counts).toEqual({ sold: 3, checked_in: 3 });
    expect(first.body.results.map((result: { outcome: string }) => result.outcome)).toEqual([
      "checked_in",
      "checked_in",
      "checked_in",
    ]);
    expect(first.body.results[1]).toMatchObject({
      code: codes[1],
      scanned_at: minutesBefore(29),
      reason: null,
      double: false,
      ticket: { id: lines[1]?.id, holder_name: "Ada Lovelace" },
      check_in: { checked_in_at: minutesBefore(29), checked_in_by_email: sale.email, device_id: "door-a-0001" },
    });
    // The list shows when each came in: the device's time, not the sync's.
    const list = await ctx.call(
      "GET",
      `/events/${sale.event.id}/check-ins?sort=${encodeURIComponent('["id","ASC"]')}`,
      {
        token: staff,
      },
    );
    expect(list.body.map((row: { checked_in_at: string }) => row.checked_in_at)).toEqual([
      minutesBefore(30),
      minutesBefore(29),
      minutesBefore(28),
    ]);

    // The answer was lost: the door sends the same batch again. Same answers, nothing counted twice.
    const again = await sync(sale.event.id, staff, batch);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const ours = (await checkInRows()).filter((row) => lines.some((line) => line.id === row.selectedNodeId));
    expect(ours).toHaveLength(3);
    expect(await doubles(sale.event.id, staff)).toEqual([]);
    expect(await counts(sale.event.id, staff)).toEqual({ sold: 3, checked_in: 3 });
  });

  it("reports a ticket scanned on two devices, once per device, with both devices and times", async () => {
    const { sale, staff } = await event();
    const { lines, codes, basket } = await order(sale, { count: 2 });
    const member = await signedInMember(ctx, sale.event.unitId, "door-b");
    const code = codes[0] as string;
    await sync(sale.event.id, staff, { device_id: "door-a-0001", scans: [{ code, scanned_at: minutesBefore(20) }] });

    // The second device, offline too, scanned the same ticket later, and another ticket.
    const batch = {
      device_id: "door-b-0002",
      scans: [
        { code, scanned_at: minutesBefore(15) },
        { code: codes[1], scanned_at: minutesBefore(14) },
      ],
    };
    const second = await sync(sale.event.id, member.token, batch);
    expect(second.body.results[0]).toMatchObject({
      outcome: "already_checked_in",
      double: true,
      check_in: { checked_in_at: minutesBefore(20), checked_in_by_email: sale.email, device_id: "door-a-0001" },
    });
    expect(second.body.results[1]).toMatchObject({ outcome: "checked_in", double: false });
    expect(second.body.counts).toEqual({ sold: 2, checked_in: 2 });
    const reported = {
      ticket_id: lines[0]?.id,
      reference: basket?.unikey,
      title: "Entry",
      holder_name: "Ada Lovelace",
      first: { device_id: "door-a-0001", by_email: sale.email, at: minutesBefore(20) },
      second: {
        device_id: "door-b-0002",
        by_email: member.email,
        at: minutesBefore(15),
        reported_at: NOW.toISOString(),
      },
    };
    expect(await doubles(sale.event.id, staff)).toMatchObject([reported]);

    // A retry of the second device's batch reports nothing new.
    expect((await sync(sale.event.id, member.token, batch)).body).toEqual(second.body);
    expect(await doubles(sale.event.id, staff)).toHaveLength(1);

    // A live scan on a third device is a double too (the same admission); its second live scan is not another one.
    for (let index = 0; index < 2; index++) {
      const live = await ctx.call("POST", `/events/${sale.event.id}/check-ins`, {
        token: staff,
        body: { code, device_id: "door-c-0003" },
      });
      expect(live.body.outcome).toBe("already_checked_in");
    }
    const all = await doubles(sale.event.id, staff);
    expect(all.map((row: { second: { device_id: string } }) => row.second.device_id).sort()).toEqual([
      "door-b-0002",
      "door-c-0003",
    ]);
    expect(await counts(sale.event.id, staff)).toEqual({ sold: 2, checked_in: 2 });
    // Another unit's staff see none of it.
    const outsider = await signedInUser(ctx, "outsider");
    expect(
      (await ctx.call("GET", `/events/${sale.event.id}/check-ins/doubles`, { token: outsider.token })).status,
    ).toBe(404);
  });

  it("does not count nor report a ticket scanned twice on the same device", async () => {
    const { sale, staff } = await event();
    const { codes } = await order(sale);
    const code = codes[0] as string;
    const result = await sync(sale.event.id, staff, {
      device_id: "door-a-0001",
      scans: [
        { code, scanned_at: minutesBefore(10) },
        { code, scanned_at: minutesBefore(5) },
      ],
    });
    expect(
      result.body.results.map((scan: { outcome: string; double: boolean }) => [scan.outcome, scan.double]),
    ).toEqual([
      ["checked_in", false],
      ["already_checked_in", false],
    ]);
    expect(result.body.results[1].check_in).toMatchObject({
      checked_in_at: minutesBefore(10),
      device_id: "door-a-0001",
    });
    expect(result.body.counts).toEqual({ sold: 1, checked_in: 1 });
    expect(await doubles(sale.event.id, staff)).toEqual([]);
  });

  it("refuses, scan by scan, a time ahead of the server's clock or too old, a forged code, another event's ticket", async () => {
    const { sale, staff } = await event();
    const { codes } = await order(sale, { count: 2 });
    const forged = createTicketCode(ticketKeysOf(newTicketSigningKey()), {
      eventId: sale.event.id,
      basketId: 1,
      itemId: 1,
    });
    const other = await event();
    const { codes: otherCodes } = await order(other.sale);
    const result = await sync(sale.event.id, staff, {
      device_id: "door-a-0001",
      scans: [
        { code: codes[0], scanned_at: new Date(NOW.getTime() + 10 * 60_000).toISOString() },
        { code: codes[0], scanned_at: minutesBefore(8 * 24 * 60) },
        { code: forged, scanned_at: minutesBefore(3) },
        { code: otherCodes[0], scanned_at: minutesBefore(2) },
        // A device's clock a minute fast is believed.
        { code: codes[1], scanned_at: new Date(NOW.getTime() + 60_000).toISOString() },
      ],
    });
    expect(result.status).toBe(200);
    expect(
      result.body.results.map((scan: { outcome: string; reason: string | null }) => [scan.outcome, scan.reason]),
    ).toEqual([
      ["refused", "scanned_in_future"],
      ["refused", "scanned_too_long_ago"],
      ["refused", "invalid_code"],
      ["refused", "other_event"],
      ["checked_in", null],
    ]);
    expect(result.body.results[3].ticket).toBeNull();
    expect(result.body.counts).toEqual({ sold: 2, checked_in: 1 });
  });

  it("answers 400 to a batch that is not one, 404 to another unit's staff", async () => {
    const { sale, staff } = await event();
    const { codes } = await order(sale);
    const scan = { code: codes[0], scanned_at: minutesBefore(1) };
    const bad = [
      {},
      { device_id: "door-a-0001" },
      { device_id: "door-a-0001", scans: [] },
      { device_id: "short", scans: [scan] },
      { device_id: "door a 0001", scans: [scan] },
      { device_id: "door-a-0001", scans: [{ ...scan, scanned_at: "yesterday" }] },
      { device_id: "door-a-0001", scans: [{ ...scan, code: "" }] },
      { device_id: "door-a-0001", scans: [{ ...scan, extra: 1 }] },
      { device_id: "door-a-0001", scans: Array.from({ length: 201 }, () => scan) },
    ];
    for (const body of bad) {
      const answer = await sync(sale.event.id, staff, body);
      expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(answer.body.errors?.length ?? 0, JSON.stringify(answer.body)).toBeGreaterThan(0);
    }
    expect(await counts(sale.event.id, staff)).toEqual({ sold: 1, checked_in: 0 });
    const outsider = await signedInUser(ctx, "outsider");
    expect((await sync(sale.event.id, outsider.token, { device_id: "door-a-0001", scans: [scan] })).status).toBe(404);
    // The largest batch is taken.
    const largest = await sync(sale.event.id, staff, {
      device_id: "door-a-0001",
      scans: Array.from({ length: 200 }, () => scan),
    });
    expect(largest.status).toBe(200);
    expect(largest.body.counts).toEqual({ sold: 1, checked_in: 1 });
  });

  it("gives the door a snapshot of the tickets sold, without a refunded one, and which are in", async () => {
    const { sale, staff } = await event();
    const { lines, codes, buyer } = await order(sale, { count: 3 });
    const [kept, refunded, scanned] = lines.map((line) => line.id) as [number, number, number];
    const refund = await ctx.call("POST", `/baskets/${buyer.basketId}/refunds`, {
      token: staff,
      body: { item_ids: [refunded], reason: "Cannot come" },
    });
    expect(refund.status).toBe(201);
    await sync(sale.event.id, staff, {
      device_id: "door-a-0001",
      scans: [{ code: codes[2], scanned_at: minutesBefore(1) }],
    });
    const response = await app.request(`/api/v1/events/${sale.event.id}/check-ins/snapshot`, {
      headers: { authorization: `Bearer ${staff}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      taken_at: NOW.toISOString(),
      tickets: [
        { id: kept, checked_in_at: null },
        { id: scanned, checked_in_at: minutesBefore(1) },
      ],
    });
    const rows = await ctx.database.db
      .select()
      .from(schema.checkIns)
      .where(eq(schema.checkIns.selectedNodeId, scanned));
    expect(rows[0]?.deviceId).toBe("door-a-0001");
  });
});

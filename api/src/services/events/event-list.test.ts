// The events list's filters (docs/specification.md §2.2, issue 14): activity (active, inactive, registrations open now,
// payments open now) beside status and moderation status, validated, and the same in the list's export.
import { beforeAll, describe, expect, it } from "vitest";
import {
  createOnSaleEvent,
  DRIVERS,
  download,
  FRENCH,
  jsonParam,
  loginAs,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe.each(DRIVERS)("events list filters (%s)", (driver) => {
  const ctx = useTestContext(driver);
  let token: string;
  let unitId: number;
  const ids: Record<string, number> = {};

  /** A new event of the unit, then its row as the case needs it (status and dates the API would not let us set). */
  async function eventOf(name: string, row: Parameters<typeof writeEventRow>[2]) {
    const created = await ctx.call("POST", "/events", {
      token,
      body: {
        unit_id: unitId,
        name,
        frontend_title: name,
        frontend_path: `${name}-${driver}-${Date.now()}`,
        start_date: inDays(-1),
        end_date: inDays(10),
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    if (Object.keys(row).length > 0) await writeEventRow(ctx, created.body.id, row);
    ids[name] = created.body.id;
  }

  beforeAll(async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 5, status: "draft" });
    token = await loginAs(ctx, sale.email, sale.password);
    unitId = sale.event.unitId;
    await writeEventRow(ctx, sale.event.id, { endDate: inDays(-30), startDate: inDays(-31) });
    ids.pastDraft = sale.event.id;
    await eventOf("draft", {});
    await eventOf("selling", {
      status: "public",
      registrationsStartDate: inDays(-2),
      registrationsEndDate: inDays(2),
      paymentsStartDate: null,
      paymentsEndDate: null,
    });
    await eventOf("registrationsLater", {
      status: "public",
      registrationsStartDate: inDays(3),
      paymentsStartDate: inDays(-1),
      paymentsEndDate: inDays(1),
    });
    await eventOf("paymentsOver", {
      status: "public",
      registrationsEndDate: null,
      paymentsStartDate: inDays(-5),
      paymentsEndDate: inDays(-1),
    });
    await eventOf("closed", { status: "closed" });
    await eventOf("archived", { status: "archived" });
    await eventOf("requested", { moderationStatus: "requested" });
  });

  const namesOf = (rows: { id: number }[]) =>
    rows.map((row) => Object.keys(ids).find((name) => ids[name] === row.id)).sort();

  async function listed(filter: Record<string, unknown>) {
    const response = await ctx.call("GET", `/events?filter=${jsonParam({ unit_id: unitId, ...filter })}`, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return namesOf(response.body);
  }

  it("active: not closed nor archived, and not over (drafts count)", async () => {
    expect(await listed({ activity: "active" })).toEqual(
      ["draft", "paymentsOver", "registrationsLater", "requested", "selling"].sort(),
    );
  });

  it("inactive: closed, archived, or over", async () => {
    expect(await listed({ activity: "inactive" })).toEqual(["archived", "closed", "pastDraft"]);
  });

  it("registrations: public and registrations open now (empty bounds are open)", async () => {
    expect(await listed({ activity: "registrations" })).toEqual(["paymentsOver", "selling"]);
  });

  it("payments: public and payments open now", async () => {
    expect(await listed({ activity: "payments" })).toEqual(["registrationsLater", "selling"]);
  });

  it("combines with the status and moderation status filters", async () => {
    expect(await listed({ activity: "active", status: "draft" })).toEqual(["draft", "requested"]);
    expect(await listed({ moderation_status: "requested" })).toEqual(["requested"]);
    // Plain query parameters are read like the filter's keys.
    const plain = await ctx.call("GET", `/events?unit_id=${unitId}&activity=inactive&status=closed`, { token });
    expect(namesOf(plain.body)).toEqual(["closed"]);
  });

  it("refuses an unknown filter value with a message, in the caller's language", async () => {
    const response = await ctx.call("GET", `/events?filter=${jsonParam({ activity: "soon" })}`, { token });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain("activity");
    const status = await ctx.call("GET", `/events?filter=${jsonParam({ status: "secret" })}`, {
      token,
      headers: FRENCH,
    });
    expect(status.status).toBe(400);
    expect(JSON.stringify(status.body)).toContain("status");
    const moderation = await ctx.call("GET", `/events?moderation_status=maybe`, { token });
    expect(moderation.status).toBe(400);
  });

  it("filters the export like the list", async () => {
    const path = `/exports/events?format=csv&filter=${jsonParam({ unit_id: unitId, activity: "payments" })}`;
    const response = await download(ctx, path, token);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const rows = text.trim().split("\r\n").slice(1);
    expect(rows.map((row) => Number(row.split(",")[0])).sort()).toEqual(
      [ids.registrationsLater, ids.selling].sort((a, b) => (a as number) - (b as number)),
    );
    const refused = await download(ctx, `/exports/events?format=csv&activity=soon`, token);
    expect(refused.status).toBe(400);
  });
});

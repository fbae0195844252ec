// The settings of a fair on-sale (docs/decisions/0036): the event's cap per buyer and bound on hold renewals, and an
// article's cap, written by the organiser within their bounds and shown to the ticket office.
import { DEFAULT_MAX_HOLD_RENEWALS, MAX_HOLD_RENEWALS, MAX_TICKETS_PER_BUYER } from "@ticketing/shared/constants";
import { describe, expect, it } from "vitest";
import { createOnSaleEvent, DRIVERS, loginAs, useTestContext } from "../../test-support.ts";

describe.each(DRIVERS)("a fair on-sale's settings (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("saves the cap per buyer and the hold renewals within their bounds, and the ticket office reads them", async () => {
    const { event, email, password } = await createOnSaleEvent(ctx, { stock: 10, status: "draft" });
    const token = await loginAs(ctx, email, password);
    const fresh = await ctx.call("GET", `/events/${event.id}`, { token });
    // WCAG 2.2.1: at least ten extensions unless the organiser sets fewer (docs/decisions/0042).
    expect(fresh.body).toMatchObject({ max_tickets_per_buyer: null, max_hold_renewals: DEFAULT_MAX_HOLD_RENEWALS });
    expect(DEFAULT_MAX_HOLD_RENEWALS).toBeGreaterThanOrEqual(10);

    const saved = await ctx.call("PUT", `/events/${event.id}`, {
      token,
      body: { max_tickets_per_buyer: 4, max_hold_renewals: 0 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ max_tickets_per_buyer: 4, max_hold_renewals: 0 });
    for (const body of [
      { max_tickets_per_buyer: 0 },
      { max_tickets_per_buyer: MAX_TICKETS_PER_BUYER + 1 },
      { max_hold_renewals: -1 },
      { max_hold_renewals: MAX_HOLD_RENEWALS + 1 },
      { max_hold_renewals: null },
    ])
      expect((await ctx.call("PUT", `/events/${event.id}`, { token, body })).status, JSON.stringify(body)).toBe(400);
    const cleared = await ctx.call("PUT", `/events/${event.id}`, { token, body: { max_tickets_per_buyer: null } });
    expect(cleared.body).toMatchObject({ max_tickets_per_buyer: null, max_hold_renewals: 0 });

    const preview = await ctx.call("GET", `/events/public-infos?path=${event.frontendPath}&testing=true`, { token });
    expect(preview.body).toMatchObject({ max_tickets_per_buyer: null, max_hold_renewals: 0 });
  });

  it("saves an article's cap per buyer on its configuration, from 1 to the most allowed, or none", async () => {
    const { event, article, email, password } = await createOnSaleEvent(ctx, { stock: 10, status: "draft" });
    const token = await loginAs(ctx, email, password);
    const path = `/node-configurations/${article.configuration.id}`;
    const saved = await ctx.call("PUT", path, { token, body: { max_per_buyer: 2 } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ event_id: event.id, max_per_buyer: 2 });
    for (const max of [0, MAX_TICKETS_PER_BUYER + 1, 1.5])
      expect((await ctx.call("PUT", path, { token, body: { max_per_buyer: max } })).status).toBe(400);
    expect((await ctx.call("PUT", path, { token, body: { max_per_buyer: null } })).body.max_per_buyer).toBeNull();
  });
});

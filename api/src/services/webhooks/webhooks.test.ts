// Webhooks (docs/decisions/0045-webhooks.md): the six events reach a real receiver on this machine once each,
// signed, written with the changes that make them; failures are retried on the schedule with a clock the test
// moves, and an endpoint failing for 3 days is switched off and its owners mailed.
import { and, eq, run, schema } from "@ticketing/db";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_RETRY_SCHEDULE_SECONDS } from "@ticketing/shared/constants";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkOut,
  DRIVERS,
  loginAs,
  payOnDemoPage,
  signedInMember,
  signedInUser,
  submitBilling,
  type TestContext,
  useTestContext,
} from "../../test-support.ts";
import { expireUnpaidPayments } from "../checkout/expired-payments.ts";
import { renderMail } from "../mail/templates/registry.ts";
import { createTicketCode, ticketKeysOf } from "../tickets/ticket-codes.ts";
import { join, provedBuyer, soldOutSale } from "../waiting-list/entries.fixtures.ts";
import { deliverDueWebhooks } from "./delivery.ts";
import { type Receiver, startReceiver } from "./receiver.fixtures.ts";

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiverFor(secret: { value: string }, now?: () => Date) {
  const receiver = await startReceiver(() => secret.value, now);
  receivers.push(receiver);
  return receiver;
}

const deliveriesOf = (ctx: TestContext, endpointId: number) =>
  ctx.database.db
    .select()
    .from(schema.webhookDeliveries)
    .where(eq(schema.webhookDeliveries.endpointId, endpointId))
    .orderBy(schema.webhookDeliveries.id)
    .all();

describe.each(DRIVERS)("webhooks (%s)", (driver) => {
  const ctx = useTestContext(driver);
  // Each test's endpoints go with it: the workers of the next one deliver only its own.
  afterEach(() =>
    ctx.database.transaction(function* (tx) {
      yield* run(tx.delete(schema.webhookEndpoints).run());
    }),
  );

  async function registered(events: readonly string[] = WEBHOOK_EVENT_TYPES, now?: () => Date) {
    const sale = await soldOutSale(ctx, 2);
    const owner = await loginAs(ctx, sale.email, sale.password);
    const unitId = sale.organiser.personalUnitId as number;
    const secret = { value: "" };
    const receiver = await receiverFor(secret, now);
    const created = await ctx.call("POST", `/units/${unitId}/webhooks`, {
      token: owner,
      body: { url: receiver.url, description: "Accounting", events },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    secret.value = created.body.secret;
    return { sale, owner, unitId, receiver, secret, webhookId: created.body.id as number };
  }

  it("tells the receiver of each of the six events once, signed, with ids and amounts but no buyer's details", async () => {
    const { sale, owner, receiver, webhookId } = await registered();
    const holder = sale.holder;
    // A checkout whose payment term ran out: its order is cancelled.
    expect((await submitBilling(ctx, holder)).status).toBe(201);
    expect((await checkOut(ctx, holder)).status).toBe(200);
    expect(await expireUnpaidPayments(ctx.database, new Date(Date.now() + 365 * 86_400_000))).toEqual([
      holder.basketId,
    ]);
    // The same basket filled again and paid.
    for (let i = 0; i < 2; i++) {
      const added = await ctx.call("POST", "/frontend/selected-nodes", {
        token: holder.token,
        body: { basket_id: holder.basketId, node_id: sale.article.node.id },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
    const checkout = await checkOut(ctx, holder);
    expect(checkout.status).toBe(200);
    await payOnDemoPage(ctx, checkout.body.payment_url);
    // A buyer in line, then one article refunded: the stock it frees is offered to them.
    const waiting = await provedBuyer(ctx, sale);
    expect((await join(ctx, sale, waiting)).status).toBe(201);
    const lines = await ctx.database.db
      .select()
      .from(schema.selectedNodes)
      .where(and(eq(schema.selectedNodes.basketId, holder.basketId), eq(schema.selectedNodes.status, "held")))
      .all();
    const [refunded, kept] = lines;
    const refund = await ctx.call("POST", `/baskets/${holder.basketId}/refunds`, {
      token: owner,
      body: { item_ids: [refunded?.id], reason: "Cannot come" },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    // The other ticket checked in, twice: the second scan tells nobody.
    const code = createTicketCode(ticketKeysOf(ctx.config.ticketSigningKey), {
      eventId: sale.event.id,
      basketId: holder.basketId,
      itemId: kept?.id as number,
    });
    for (const status of [201, 200]) {
      const scanned = await ctx.call("POST", `/events/${sale.event.id}/check-ins`, { token: owner, body: { code } });
      expect(scanned.status, JSON.stringify(scanned.body)).toBe(status);
    }
    const closed = await ctx.call("PUT", `/events/${sale.event.id}`, { token: owner, body: { status: "closed" } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);

    // Written with the changes: one delivery per event, before any worker ran.
    const queued = await deliveriesOf(ctx, webhookId);
    expect(queued.map((row) => row.eventType).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(await deliverDueWebhooks(ctx.database, { secretKey: ctx.config.secretKey })).toEqual({
      delivered: 6,
      failed: 0,
    });
    expect(await deliverDueWebhooks(ctx.database, { secretKey: ctx.config.secretKey })).toEqual({
      delivered: 0,
      failed: 0,
    });

    expect(receiver.seen.every((received) => received.verdict.ok)).toBe(true);
    expect(receiver.seen).toHaveLength(6);
    const byType = Object.fromEntries(receiver.taken.map((received) => [received.payload.type, received.payload]));
    expect(Object.keys(byType).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const order = { order_id: holder.basketId, event_id: sale.event.id, event_title: sale.event.frontendTitle };
    expect(byType["order.cancelled"].data).toMatchObject({ ...order, status: "new", amount_cents: 5000 });
    expect(byType["order.paid"].data).toMatchObject({
      ...order,
      status: "validated",
      amount_cents: 5000,
      testing: false,
    });
    expect(byType["order.refunded"].data).toMatchObject({ ...order, refunded_cents: 2500, amount_cents: 5000 });
    expect(byType["ticket.checked_in"].data).toMatchObject({ ...order, ticket_id: kept?.id, title: "Entry" });
    expect(byType["waiting_list.offer"].data).toMatchObject({ event_id: sale.event.id, quantity: 1 });
    expect(byType["event.status_changed"].data).toEqual({
      event_id: sale.event.id,
      event_title: sale.event.frontendTitle,
      status: "closed",
      previous_status: "public",
    });
    // No buyer's name, email or address in any body.
    const bodies = receiver.seen.map((received) => received.body).join("\n");
    for (const personal of ["Lovelace", "Ada", "@example.org", "Rue"]) expect(bodies).not.toContain(personal);

    // The log, newest first, with each attempt.
    const log = await ctx.call("GET", `/units/${sale.organiser.personalUnitId}/webhooks/${webhookId}/deliveries`, {
      token: owner,
    });
    expect(log.status).toBe(200);
    expect(log.body[0].event_type).toBe("event.status_changed");
    expect(log.body.every((row: { status: string }) => row.status === "delivered")).toBe(true);
    expect(log.body[0].attempt_log).toEqual([expect.objectContaining({ status_code: 200, error: null })]);
  });

  it("writes nothing for a unit without endpoints, nor for events an endpoint did not choose", async () => {
    const { sale, owner, webhookId } = await registered(["order.refunded"]);
    const closed = await ctx.call("PUT", `/events/${sale.event.id}`, { token: owner, body: { status: "closed" } });
    expect(closed.status).toBe(200);
    expect(await deliveriesOf(ctx, webhookId)).toEqual([]);
    const other = await soldOutSale(ctx, 1);
    const otherOwner = await loginAs(ctx, other.email, other.password);
    await ctx.call("PUT", `/events/${other.event.id}`, { token: otherOwner, body: { status: "closed" } });
    expect(await ctx.database.db.$count(schema.webhookDeliveries)).toBe(0);
  });

  it("queues one check-in event when three devices scan the same ticket at the same instant", async () => {
    const { sale, owner, webhookId } = await registered(["ticket.checked_in"]);
    const holder = sale.holder;
    expect((await submitBilling(ctx, holder)).status).toBe(201);
    const checkout = await checkOut(ctx, holder);
    await payOnDemoPage(ctx, checkout.body.payment_url);
    const [line] = await ctx.database.db
      .select()
      .from(schema.selectedNodes)
      .where(eq(schema.selectedNodes.basketId, holder.basketId))
      .all();
    const code = createTicketCode(ticketKeysOf(ctx.config.ticketSigningKey), {
      eventId: sale.event.id,
      basketId: holder.basketId,
      itemId: line?.id as number,
    });
    const scans = await Promise.all(
      [1, 2, 3].map(() => ctx.call("POST", `/events/${sale.event.id}/check-ins`, { token: owner, body: { code } })),
    );
    expect(scans.map((scan) => scan.status).sort()).toEqual([200, 200, 201]);
    const queued = await deliveriesOf(ctx, webhookId);
    expect(queued.map((row) => JSON.parse(row.payload).data.ticket_id)).toEqual([line?.id]);
  });

  it("retries a receiver answering 500 on the schedule, then switches the endpoint off and mails its owner", async () => {
    let clock = new Date("2030-03-01T08:00:00.000Z");
    const now = () => clock;
    const { sale, owner, unitId, receiver, webhookId } = await registered(WEBHOOK_EVENT_TYPES, now);
    receiver.mode = 500;
    const ping = await ctx.call("POST", `/units/${unitId}/webhooks/${webhookId}/ping`, { token: owner, body: {} });
    expect(ping.status, JSON.stringify(ping.body)).toBe(201);
    const started = clock;
    const at = (seconds: number) => new Date(started.getTime() + seconds * 1000);
    expect(await deliverDueWebhooks(ctx.database, { now, secretKey: ctx.config.secretKey })).toEqual({
      delivered: 0,
      failed: 1,
    });
    let elapsed = 0;
    for (const [index, wait] of WEBHOOK_RETRY_SCHEDULE_SECONDS.entries()) {
      const [row] = await deliveriesOf(ctx, webhookId);
      expect(row).toMatchObject({ status: "pending", attempts: index + 1, lastStatusCode: 500 });
      elapsed += wait;
      expect(row?.nextAttemptAt).toBe(at(elapsed).toISOString());
      // A second before it is due, nothing is sent.
      clock = at(elapsed - 1);
      expect(await deliverDueWebhooks(ctx.database, { now, secretKey: ctx.config.secretKey })).toEqual({
        delivered: 0,
        failed: 0,
      });
      clock = at(elapsed);
      expect(await deliverDueWebhooks(ctx.database, { now, secretKey: ctx.config.secretKey })).toEqual({
        delivered: 0,
        failed: 1,
      });
    }
    // Over 3 days of failures: given up, the endpoint switched off, its owner told (in English and in French).
    const [given] = await deliveriesOf(ctx, webhookId);
    expect(given).toMatchObject({ status: "failed", attempts: WEBHOOK_RETRY_SCHEDULE_SECONDS.length + 1 });
    expect(receiver.seen).toHaveLength(WEBHOOK_RETRY_SCHEDULE_SECONDS.length + 1);
    const endpoint = await ctx.call("GET", `/units/${unitId}/webhooks/${webhookId}`, { token: owner });
    expect(endpoint.body).toMatchObject({ enabled: false, failing_since: started.toISOString() });
    expect(endpoint.body.disabled_at).toBe(at(elapsed).toISOString());
    const mails = await ctx.database.db
      .select()
      .from(schema.mailOutbox)
      .where(eq(schema.mailOutbox.kind, "webhook_disabled"))
      .all();
    expect(mails.map((mail) => mail.to)).toEqual([sale.email]);
    const rendered = await renderMail({ database: ctx.database, config: ctx.config }, mails[0] as (typeof mails)[0]);
    expect(rendered.subject).toContain(receiver.url);
    expect(rendered.text).toContain("switched off");
    expect(rendered.text).toContain("désactivé");
    // Its attempts are logged, each with its status code.
    const log = await ctx.call("GET", `/units/${unitId}/webhooks/${webhookId}/deliveries`, { token: owner });
    expect(log.body[0].attempt_log).toHaveLength(WEBHOOK_RETRY_SCHEDULE_SECONDS.length + 1);
    expect(log.body[0].attempt_log.every((attempt: { status_code: number }) => attempt.status_code === 500)).toBe(true);
    // Switched off, nothing is sent to it, not even by hand.
    const refused = await ctx.call("POST", `/units/${unitId}/webhooks/${webhookId}/deliveries/${given?.id}/resend`, {
      token: owner,
      body: {},
    });
    expect(refused.status).toBe(409);

    // The owner switches it on again and sends the delivery again: the same event id, delivered now.
    receiver.mode = 200;
    clock = at(elapsed + 3600);
    const on = await ctx.call("PUT", `/units/${unitId}/webhooks/${webhookId}`, {
      token: owner,
      body: { enabled: true },
    });
    expect(on.body).toMatchObject({ enabled: true, failing_since: null, disabled_at: null });
    const again = await ctx.call("POST", `/units/${unitId}/webhooks/${webhookId}/deliveries/${given?.id}/resend`, {
      token: owner,
      body: {},
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.message_id).toBe(given?.messageId);
    clock = new Date(Date.now() + 1000);
    expect(await deliverDueWebhooks(ctx.database, { now, secretKey: ctx.config.secretKey })).toEqual({
      delivered: 1,
      failed: 0,
    });
    expect(receiver.taken.map((received) => received.id)).toEqual([given?.messageId]);
  });

  it("lets owners and superusers manage endpoints, refuses members (403) and others (404), and bad addresses (400)", async () => {
    const { sale, owner, unitId, webhookId, secret } = await registered();
    const base = `/units/${unitId}/webhooks`;
    const member = await signedInMember(ctx, unitId);
    const outsider = await signedInUser(ctx, "outsider");
    const superuser = await signedInUser(ctx, "moderator", { isSuperuser: true });
    expect((await ctx.call("GET", base, { token: member.token })).status).toBe(403);
    expect((await ctx.call("GET", base, { token: outsider.token })).status).toBe(404);
    const seenBySuperuser = await ctx.call("GET", base, { token: superuser.token });
    expect(seenBySuperuser.body).toHaveLength(1);
    expect((await ctx.call("GET", base, { token: owner })).body[0]).toMatchObject({
      id: webhookId,
      secret: secret.value,
      events: [...WEBHOOK_EVENT_TYPES],
    });
    const bad = async (body: unknown) => {
      const answer = await ctx.call("POST", base, { token: owner, body });
      expect(answer.status).toBe(400);
      return answer.body.errors as string[];
    };
    const events = ["order.paid"];
    expect(await bad({ url: "http://example.org/hook", events })).toEqual([
      expect.stringContaining("only for localhost"),
    ]);
    expect(await bad({ url: "http://10.0.0.1/hook", events })).toHaveLength(1);
    expect(await bad({ url: "ftp://example.org/hook", events })).toHaveLength(1);
    expect(await bad({ url: "https://user:pass@example.org/hook", events })).toHaveLength(1);
    expect(await bad({ url: "https://example.org/hook", events: [] })).toEqual(["Choose at least one event"]);
    expect(await bad({ url: "https://example.org/hook", events: ["order.shipped"] })).toHaveLength(1);
    for (const url of ["https://example.org/hook", "http://localhost:9000/x", "http://[::1]:9000/x"]) {
      const made = await ctx.call("POST", base, { token: owner, body: { url, events } });
      expect(made.status, url).toBe(201);
    }
    // Kept encrypted with the product's secret: a copy of the database alone does not give it away.
    const stored = await ctx.database.db
      .select()
      .from(schema.webhookEndpoints)
      .where(eq(schema.webhookEndpoints.id, webhookId))
      .get();
    expect(stored?.secretEncrypted).not.toContain(secret.value.slice("whsec_".length));
    // A new secret on demand.
    const rolled = await ctx.call("POST", `${base}/${webhookId}/roll-secret`, { token: owner, body: {} });
    expect(rolled.body.secret).toMatch(/^whsec_/);
    expect(rolled.body.secret).not.toBe(secret.value);
    // Another unit's endpoint is not found under this unit.
    const other = await soldOutSale(ctx, 1);
    const otherOwner = await loginAs(ctx, other.email, other.password);
    expect((await ctx.call("GET", `${base}/${webhookId}`, { token: otherOwner })).status).toBe(404);
    expect(
      (await ctx.call("GET", `/units/${other.organiser.personalUnitId}/webhooks/${webhookId}`, { token: otherOwner }))
        .status,
    ).toBe(404);
    expect((await ctx.call("DELETE", `${base}/${webhookId}`, { token: owner })).status).toBe(200);
    expect(sale.event.id).toBeGreaterThan(0);
  });
});

// `/events/:id/cancellation`: cancelling an event for good, its paid orders refunded through their payment modules
// by a durable job (docs/decisions/0047-cancelling-an-event.md), and the job's progress.
import { Empty } from "@ticketing/shared/schemas/common";
import { EventCancellation, EventCancellationRequest } from "@ticketing/shared/schemas/event-cancellation";
import { Hono } from "hono";
import { type AppEnv, type Ctx, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { cancelEvent, getCancellation, retryFailedRefunds } from "../services/events/cancellation.ts";
import { markRefundedByHand, runCancellations } from "../services/events/cancellation-worker.ts";

/** Mounted at `/events/:id/cancellation`: `idParam` reads the event's id. */
export const eventCancellationRoutes = new Hono<AppEnv>();

/** The refunds go on after the answer; a restart (product.ts) carries on what a killed process left. */
function startRefunds(c: Ctx) {
  const deps = c.get("deps");
  deps.afterAnswer.schedule(async () => {
    await runCancellations({ ...deps, now: () => deps.now?.() ?? new Date() });
  });
}

eventCancellationRoutes.get(
  "/",
  route(
    {
      summary: "What cancelling the event would do, or where its refunds stand",
      description:
        "Staff who see the event. Before a cancellation: the paid orders it would refund through their payment " +
        "module and those paid at a point of sale, to refund by hand. After: each order's refund (pending, " +
        "refunding, refunded, failed, by hand, refunded by hand) and the mails queued.",
      auth: "user",
      scope: "read",
      answer: EventCancellation,
    },
    async (c, { user }) => answer(c, await getCancellation(c.get("deps").database.db, user, idParam(c))),
  ),
);

eventCancellationRoutes.post(
  "/",
  route(
    {
      summary: "Cancel an event for good: sales stop, open baskets close, every paid order is refunded",
      description:
        "Owners of the event's unit and superusers (a member gets 403). A public or closed event (409 for a draft, " +
        "an archived or a cancelled one). In one transaction the event is closed, its waiting list and open baskets " +
        "closed (their stock given back) and its paid orders listed; then each is refunded through its payment " +
        "module and its buyer mailed with `message` / `message_fr`, after the answer (follow it with GET). Orders " +
        "paid at a point of sale are listed to refund by hand.",
      auth: "user",
      body: EventCancellationRequest,
      answer: EventCancellation,
      status: 201,
    },
    async (c, { user, body }) => {
      const deps = c.get("deps");
      const { progress, mailed } = await cancelEvent(deps.database, user, idParam(c), body, now(c));
      if (mailed) deps.onMailQueued?.();
      startRefunds(c);
      return answer(c, progress, 201);
    },
  ),
);

eventCancellationRoutes.post(
  "/retry",
  route(
    {
      summary: "Try the failed refunds of a cancelled event again",
      description:
        "Owners and superusers; 404 when the event is not cancelled. A credit note a failure left pending is paid " +
        "back with its own idempotency key, never a new one.",
      auth: "user",
      body: Empty,
      answer: EventCancellation,
    },
    async (c, { user }) => {
      const { database } = c.get("deps");
      const eventId = idParam(c);
      await retryFailedRefunds(database, user, eventId, now(c));
      startRefunds(c);
      return answer(c, await getCancellation(database.db, user, eventId));
    },
  ),
);

eventCancellationRoutes.post(
  "/baskets/:basketId/refunded-by-hand",
  route(
    {
      summary: "Mark an order of a cancelled event as paid back by hand",
      description:
        "Owners and superusers. For an order paid at a point of sale, or one whose provider kept refusing: its " +
        "credit note is written (or the pending one resolved) without asking any provider, and its buyer mailed. " +
        "404 for an order not in the cancellation; 409 when it is refunded already or with its provider now.",
      auth: "user",
      body: Empty,
      answer: EventCancellation,
    },
    async (c, { user }) => {
      const deps = c.get("deps");
      const ids = { eventId: idParam(c), basketId: idParam(c, "basketId") };
      await markRefundedByHand(deps, user, ids, now(c));
      return answer(c, await getCancellation(deps.database.db, user, ids.eventId));
    },
  ),
);

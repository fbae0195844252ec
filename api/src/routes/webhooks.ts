// A unit's webhooks (docs/decisions/0045-webhooks.md): its owners (and superusers) manage its endpoints, read their
// delivery log, send a delivery again and send a test. Signed-in staff only: no API token scope opens these.
import { Empty } from "@ticketing/shared/schemas/common";
import { Webhook, WebhookCreate, WebhookDelivery, WebhookUpdate } from "@ticketing/shared/schemas/webhooks";
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, type Ctx, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  pingWebhook,
  resendDelivery,
  rollWebhookSecret,
  updateWebhook,
} from "../services/webhooks/endpoints.ts";

export const webhookRoutes = new Hono<AppEnv>();

const Queued = z.object({ id: z.number().int(), messageId: z.string() });
const unitId = (c: Parameters<typeof idParam>[0]) => idParam(c, "id");
const webhookId = (c: Parameters<typeof idParam>[0]) => idParam(c, "webhookId");
/** The database and the product's secret, which seals the endpoints' secrets at rest. */
const sealing = (c: Ctx) => ({ database: c.get("deps").database, secretKey: c.get("deps").config.secretKey });

webhookRoutes.get(
  "/",
  route(
    { summary: "The webhook endpoints of a unit you own", auth: "user", answer: z.array(Webhook) },
    async (c, { user }) => answer(c, await listWebhooks(sealing(c), user, unitId(c))),
  ),
);

webhookRoutes.post(
  "/",
  route(
    {
      summary: "Register a webhook endpoint of a unit you own",
      description:
        "https, or http only for localhost, 127.0.0.1 or [::1]. The endpoint gets its own secret (`whsec_…`), " +
        "with which every delivery is signed (the Standard Webhooks scheme: see the README's Webhooks section).",
      auth: "user",
      body: WebhookCreate,
      answer: Webhook,
      status: 201,
    },
    async (c, { user, body }) => answer(c, await createWebhook(sealing(c), user, unitId(c), body, now(c)), 201),
  ),
);

webhookRoutes.get(
  "/:webhookId",
  route({ summary: "A webhook endpoint of a unit you own", auth: "user", answer: Webhook }, async (c, { user }) =>
    answer(c, await getWebhook(sealing(c), user, unitId(c), webhookId(c))),
  ),
);

webhookRoutes.put(
  "/:webhookId",
  route(
    {
      summary: "Change a webhook endpoint, or switch it off or on again",
      description: "Switched on again, its failing streak is forgotten and its pending deliveries are due at once.",
      auth: "user",
      body: WebhookUpdate,
      answer: Webhook,
    },
    async (c, { user, body }) =>
      answer(c, await updateWebhook(sealing(c), user, unitId(c), webhookId(c), body, now(c))),
  ),
);

webhookRoutes.delete(
  "/:webhookId",
  route(
    { summary: "Remove a webhook endpoint with its delivery log", auth: "user", answer: Webhook },
    async (c, { user }) => answer(c, await deleteWebhook(sealing(c), user, unitId(c), webhookId(c))),
  ),
);

webhookRoutes.post(
  "/:webhookId/roll-secret",
  route(
    {
      summary: "Give a webhook endpoint a new secret",
      description: "Deliveries from now on are signed with the new secret only.",
      auth: "user",
      body: Empty,
      answer: Webhook,
    },
    async (c, { user }) => answer(c, await rollWebhookSecret(sealing(c), user, unitId(c), webhookId(c), now(c))),
  ),
);

webhookRoutes.post(
  "/:webhookId/ping",
  route(
    {
      summary: "Send a test delivery (`ping`) to a webhook endpoint now",
      auth: "user",
      body: Empty,
      answer: Queued,
      status: 201,
    },
    async (c, { user }) => {
      const { database, onWebhookQueued } = c.get("deps");
      const queued = await pingWebhook(database, user, unitId(c), webhookId(c), now(c));
      onWebhookQueued?.();
      return answer(c, queued, 201);
    },
  ),
);

webhookRoutes.get(
  "/:webhookId/deliveries",
  route(
    {
      summary: "The delivery log of a webhook endpoint, newest first, with every attempt",
      auth: "user",
      list: { sortable: ["id"], defaultSort: "id" },
      answer: WebhookDelivery,
    },
    async (c, { user, list }) =>
      answerList(
        c,
        "deliveries",
        list,
        await listDeliveries(c.get("deps").database, user, unitId(c), webhookId(c), list),
      ),
  ),
);

webhookRoutes.post(
  "/:webhookId/deliveries/:deliveryId/resend",
  route(
    {
      summary: "Send a delivery again: a new delivery of the same event (same `Webhook-Id`), now",
      auth: "user",
      body: Empty,
      answer: Queued,
      status: 201,
    },
    async (c, { user }) => {
      const { database, onWebhookQueued } = c.get("deps");
      const queued = await resendDelivery(database, user, unitId(c), webhookId(c), idParam(c, "deliveryId"), now(c));
      onWebhookQueued?.();
      return answer(c, queued, 201);
    },
  ),
);

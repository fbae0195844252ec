// Ticket-office calls (DESIGN.md 3): every basket call checks the basket is the caller's.

import { Readable } from "node:stream";
import { and, eq, run, schema, sql } from "@ticketing/db";
import { PAYMENT_METHODS } from "@ticketing/shared/constants";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv, Ctx } from "../context.ts";
import { conflict, invalid, notFound } from "../lib/errors.ts";
import { answer, idParam, readBody, readQuery, zBooleanFlag, zId } from "../lib/http.ts";
import { requireFrontendLogins } from "../services/access.ts";
import { presentBasketDetail, presentBaskets, presentPaymentIntent } from "../services/basket-views.ts";
import {
  addSelectedNode,
  assertBasketActionsAllowed,
  createBasket,
  findLogin,
  findOwnedBasket,
  listOwnBaskets,
  removeSelectedNode,
  repriceBasket,
  visitorOf,
} from "../services/baskets.ts";
import { buildVisitorTree, getCatalogue, withFreshStock } from "../services/catalogue.ts";
import { checkout, paymentIntentsOf, saveBillingInformation } from "../services/checkout.ts";
import { communicationOf } from "../services/events.ts";
import { basketForms, hasMissingAnswers, saveAnswers } from "../services/forms.ts";
import {
  loadTicketData,
  pdfInputOf,
  renderTicketPdf,
  streamBasketTickets,
  ticketsFileName,
} from "../services/tickets.ts";
import { frontendLoginRoutes } from "./auth.ts";

export const frontendRoutes = new Hono<AppEnv>();
frontendRoutes.route("/frontend-logins", frontendLoginRoutes);

const now = (c: Ctx) => c.get("deps").now?.() ?? new Date();

async function eventById(c: Ctx, eventId: number) {
  const event = await c.get("deps").database.db.select().from(schema.events).where(eq(schema.events.id, eventId)).get();
  if (!event) throw notFound("errors.event_not_found");
  return event;
}

/** The caller's basket, its event and the login that owns it. */
async function ownedBasket(c: Ctx, basketId: number) {
  const loginIds = requireFrontendLogins(c.get("auth"));
  const { db } = c.get("deps").database;
  const basket = await findOwnedBasket(db, loginIds, basketId);
  const event = await eventById(c, basket.eventId);
  const login = await findLogin(db, loginIds, event.id, basket.testing);
  return { basket, event, login };
}

/** A row hanging off a basket (selected node, selected code), found by the path's id, if the basket is the caller's. */
async function ownedBasketRow<T extends typeof schema.selectedNodes | typeof schema.selectedPromotionCodes>(
  c: Ctx,
  table: T,
) {
  requireFrontendLogins(c.get("auth"));
  const row = await c
    .get("deps")
    .database.db.select()
    .from(table)
    .where(eq(table.id, idParam(c)))
    .get();
  if (!row) throw notFound();
  return { row: row as T["$inferSelect"], ...(await ownedBasket(c, row.basketId)) };
}

async function presentOne(c: Ctx, basketId: number) {
  const { database, config } = c.get("deps");
  const basket = await findOwnedBasket(database.db, requireFrontendLogins(c.get("auth")), basketId);
  return presentBasketDetail(database.db, basket, config);
}

frontendRoutes.get("/frontend/events/:id/tree", async (c) => {
  const { db } = c.get("deps").database;
  const event = await eventById(c, idParam(c));
  const query = readQuery(c, z.object({ basketId: zId.optional(), testing: zBooleanFlag.optional() }));
  const auth = c.get("auth");
  const loginIds = auth?.frontendLoginIds ?? [];
  const testing = query.testing ?? false;
  if (!testing && event.status !== "public" && event.status !== "closed") throw notFound("errors.event_not_found");
  const login = loginIds.length ? await findLogin(db, loginIds, event.id, testing).catch(() => null) : null;
  if (testing && !login) throw notFound("errors.event_not_found");
  const basket = query.basketId ? await findOwnedBasket(db, loginIds, query.basketId) : null;
  const visitor = login ? await visitorOf(db, login, basket) : { email: null, promotionCodes: [] };
  const catalogue = await withFreshStock(db, await getCatalogue(db, event.id));
  return answer(c, { eventId: event.id, root: buildVisitorTree(catalogue, visitor, testing, now(c)) });
});

frontendRoutes.get("/frontend/baskets", async (c) => {
  const loginIds = requireFrontendLogins(c.get("auth"));
  const { database } = c.get("deps");
  const query = readQuery(
    c,
    z.object({ eventId: zId.optional(), event: zId.optional(), testing: zBooleanFlag.optional() }),
  );
  const baskets = await listOwnBaskets(database.db, loginIds, {
    eventId: query.eventId ?? query.event,
    testing: query.testing,
  });
  return answer(c, await presentBaskets(database.db, baskets));
});

frontendRoutes.post("/frontend/baskets", async (c) => {
  const loginIds = requireFrontendLogins(c.get("auth"));
  const { database } = c.get("deps");
  const body = await readBody(
    c,
    z.strictObject({
      eventId: zId.optional(),
      event: zId.optional(),
      testing: zBooleanFlag.default(false),
      createdById: zId.optional(),
    }),
  );
  const eventId = body.eventId ?? body.event;
  if (!eventId) throw invalid("event_id: Required", { event_id: "Required" });
  const event = await eventById(c, eventId);
  const login = await findLogin(database.db, loginIds, event.id, body.testing);
  const basket = await createBasket(database, event, login, now(c));
  return answer(c, await presentOne(c, basket.id), 201);
});

frontendRoutes.get("/frontend/baskets/:id", async (c) => answer(c, await presentOne(c, idParam(c))));

frontendRoutes.post("/frontend/selected-nodes", async (c) => {
  const body = await readBody(
    c,
    z.strictObject({ basketId: zId, nodeId: zId, optionNodeIds: z.array(zId).max(100).default([]) }),
  );
  const { basket, event, login } = await ownedBasket(c, body.basketId);
  const item = await addSelectedNode(c.get("deps").database, {
    event,
    basket,
    login,
    nodeId: body.nodeId,
    optionNodeIds: body.optionNodeIds,
    now: now(c),
  });
  return answer(c, { ...item, basketId: basket.id }, 201);
});

frontendRoutes.get("/frontend/selected-nodes", async (c) => {
  const query = readQuery(c, z.object({ basketId: zId }));
  const presented = await presentOne(c, query.basketId);
  return answer(c, presented.items);
});

frontendRoutes.delete("/frontend/selected-nodes/:id", async (c) => {
  const { row, basket, event } = await ownedBasketRow(c, schema.selectedNodes);
  const { database } = c.get("deps");
  await removeSelectedNode(database, { event, basket, selectedNodeId: row.id, now: now(c) });
  return answer(c, { id: row.id, basketId: basket.id });
});

frontendRoutes.get("/frontend/selected-promotion-codes", async (c) => {
  const query = readQuery(c, z.object({ basketId: zId.optional(), basket: zId.optional() }));
  const basketId = query.basketId ?? query.basket;
  if (!basketId) throw invalid("basket_id: Required", { basket_id: "Required" });
  return answer(c, (await presentOne(c, basketId)).promotionCodes);
});

frontendRoutes.post("/frontend/selected-promotion-codes", async (c) => {
  const body = await readBody(c, z.strictObject({ basketId: zId, value: z.string().trim().min(1).max(100) }));
  const { basket, event, login } = await ownedBasket(c, body.basketId);
  const { database } = c.get("deps");
  assertBasketActionsAllowed(event, basket.testing, now(c));
  if (basket.status !== "new") throw conflict("errors.basket_not_modifiable");
  const code = await database.db
    .select()
    .from(schema.promotionCodes)
    .where(
      and(
        eq(schema.promotionCodes.eventId, event.id),
        sql`lower(${schema.promotionCodes.value}) = lower(${body.value})`,
      ),
    )
    .get();
  if (!code) throw invalid("errors.promotion_code_invalid", { value: "errors.promotion_code_invalid" });
  const created = await database.transaction(function* (tx) {
    const existing = yield* run(
      tx
        .select()
        .from(schema.selectedPromotionCodes)
        .where(
          and(
            eq(schema.selectedPromotionCodes.basketId, basket.id),
            eq(schema.selectedPromotionCodes.promotionCodeId, code.id),
          ),
        )
        .get(),
    );
    if (existing) throw conflict("errors.promotion_code_active");
    return yield* run(
      tx
        .insert(schema.selectedPromotionCodes)
        .values({ basketId: basket.id, promotionCodeId: code.id })
        .returning()
        .get(),
    );
  });
  await repriceBasket(database, { event, basket, login });
  return answer(c, { id: created.id, basketId: basket.id, name: code.name, value: code.value }, 201);
});

frontendRoutes.delete("/frontend/selected-promotion-codes/:id", async (c) => {
  const { row, basket, event, login } = await ownedBasketRow(c, schema.selectedPromotionCodes);
  const { database } = c.get("deps");
  if (basket.status !== "new") throw conflict("errors.basket_not_modifiable");
  await database.transaction(function* (tx) {
    yield* run(tx.delete(schema.selectedPromotionCodes).where(eq(schema.selectedPromotionCodes.id, row.id)).run());
  });
  await repriceBasket(database, { event, basket, login });
  return answer(c, { id: row.id, basketId: basket.id });
});

const required = (max: number) => z.string().trim().min(1, "This field is required").max(max);
frontendRoutes.post("/frontend/billing-information", async (c) => {
  const body = await readBody(
    c,
    z.strictObject({
      basketId: zId,
      firstName: required(100),
      lastName: required(100),
      email: z.email("Enter a valid email address").max(254),
      address: required(300),
      postalCode: required(20),
      city: required(100),
      country: required(100),
    }),
  );
  const { basket, login } = await ownedBasket(c, body.basketId);
  const { basketId: _basketId, ...fields } = body;
  const row = await saveBillingInformation(c.get("deps").database, basket, login, fields);
  return answer(c, row, 201);
});

frontendRoutes.post("/frontend/baskets/:id/checkout", async (c) => {
  const { basket, event } = await ownedBasket(c, idParam(c));
  const body = await readBody(
    c,
    z.strictObject({ paymentMethod: z.enum(PAYMENT_METHODS), termsAccepted: zBooleanFlag }),
  );
  const { database, config, onMailQueued } = c.get("deps");
  const login = await findLogin(database.db, requireFrontendLogins(c.get("auth")), event.id, basket.testing);
  const catalogue = await getCatalogue(database.db, event.id);
  if (await hasMissingAnswers(database.db, catalogue, basket, await visitorOf(database.db, login, basket)))
    throw invalid("errors.forms_missing");
  const result = await checkout(database, { event, basket, ...body, language: c.get("language"), now: now(c) });
  if (!result.paymentIntent) onMailQueued?.();
  const intent = result.paymentIntent ? presentPaymentIntent(result.paymentIntent, result.invoice, config) : null;
  return answer(c, {
    basket: await presentOne(c, basket.id),
    invoice: result.invoice,
    paymentIntent: intent,
    paymentUrl: intent?.paymentUrl ?? null,
  });
});

frontendRoutes.get("/frontend/payment-intents", async (c) => {
  const query = readQuery(c, z.object({ basketId: zId }));
  const { basket } = await ownedBasket(c, query.basketId);
  const { database, config } = c.get("deps");
  const rows = await paymentIntentsOf(database.db, [basket.id]);
  return answer(
    c,
    rows.map(({ intent, invoice }) => presentPaymentIntent(intent, invoice, config)),
  );
});

frontendRoutes.get("/frontend/baskets/:id/tickets/:itemId", async (c) => {
  const { basket } = await ownedBasket(c, idParam(c));
  const itemId = idParam(c, "itemId");
  if (basket.status !== "validated") throw conflict("errors.ticket_not_available");
  const { database, ticketKeys } = c.get("deps");
  const [ticket] = await loadTicketData(database, basket.id, itemId);
  if (!ticket) throw notFound();
  const pdf = await renderTicketPdf(pdfInputOf(ticketKeys, c.get("language"))(ticket));
  return c.body(new Uint8Array(pdf), 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="ticket-${itemId}.pdf"`,
  });
});

/** The basket's tickets in one PDF, a page each: what a large order downloads instead of a mail attachment. */
frontendRoutes.get("/frontend/baskets/:id/tickets", async (c) => {
  const { basket } = await ownedBasket(c, idParam(c));
  if (basket.status !== "validated") throw conflict("errors.ticket_not_available");
  const { database, ticketKeys } = c.get("deps");
  const pdf = await streamBasketTickets(database, ticketKeys, basket.id, c.get("language"));
  if (!pdf) throw notFound();
  return c.body(Readable.toWeb(pdf) as ReadableStream<Uint8Array>, 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `attachment; filename="${ticketsFileName(basket.unikey)}"`,
  });
});

frontendRoutes.get("/frontend/baskets/:id/forms", async (c) => {
  const { basket, event, login } = await ownedBasket(c, idParam(c));
  const { db } = c.get("deps").database;
  return answer(c, await basketForms(db, await getCatalogue(db, event.id), basket, await visitorOf(db, login, basket)));
});

frontendRoutes.put("/frontend/selected-nodes/:id/extra-infos", async (c) => {
  const { row, basket, event, login } = await ownedBasketRow(c, schema.selectedNodes);
  const { database } = c.get("deps");
  const body = await readBody(
    c,
    z.strictObject({
      answers: z.array(z.strictObject({ extraInfoId: zId, value: z.string().max(10_000).nullable() })).max(500),
    }),
  );
  const saved = await saveAnswers(database, {
    catalogue: await getCatalogue(database.db, event.id),
    event,
    basket,
    itemId: row.id,
    answers: body.answers,
    visitor: await visitorOf(database.db, login, basket),
    now: now(c),
  });
  return answer(c, saved);
});

frontendRoutes.get("/frontend/events/:id/points-of-sale", async (c) => {
  const event = await eventById(c, idParam(c));
  const rows = await c
    .get("deps")
    .database.db.select()
    .from(schema.pointsOfSale)
    .where(eq(schema.pointsOfSale.eventId, event.id))
    .all();
  return answer(
    c,
    rows.map(({ id, title, description, location }) => ({ id, title, description, location })),
  );
});

/** What the confirmation page shows after an order: the organiser's text, or a page of theirs to go to. */
frontendRoutes.get("/frontend/events/:id/confirmation-page", async (c) => {
  const event = await eventById(c, idParam(c));
  const settings = await communicationOf(c.get("deps").database.db, event.id);
  return answer(c, {
    text: settings.confirmationPageText ?? null,
    // Rows written before addresses were checked may hold anything: only an https address is ever followed.
    redirectUrl: settings.confirmationRedirectUrl?.startsWith("https://") ? settings.confirmationRedirectUrl : null,
  });
});

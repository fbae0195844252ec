// Back-office sales: the baskets of events the user may see.

import { and, count, eq, inArray, schema } from "@ticketing/db";
import { BASKET_STATUSES } from "@ticketing/shared/constants";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { conflict, notFound } from "../lib/errors.ts";
import { answer, idParam, readBody } from "../lib/http.ts";
import { idFilter, listOrder, parseListQuery, setContentRange } from "../lib/list-query.ts";
import { getVisibleEvent, requireUser, visibleUnitIds } from "../services/access.ts";
import { basketById, presentBasketDetail, presentBaskets } from "../services/basket-views.ts";
import { resolvePayment } from "../services/checkout.ts";

export const salesRoutes = new Hono<AppEnv>();

const SORTABLE = { id: schema.baskets.id, status: schema.baskets.status, createdAt: schema.baskets.createdAt } as const;

salesRoutes.get("/baskets", async (c) => {
  const { db } = c.get("deps").database;
  const user = await requireUser(db, c.get("auth"));
  const query = parseListQuery(c, { sortable: Object.keys(SORTABLE), idFilters: ["id", "eventId", "event"] });
  const f = query.filter;
  const units = await visibleUnitIds(db, user);
  const visible =
    units === null
      ? undefined
      : inArray(
          schema.baskets.eventId,
          db.select({ id: schema.events.id }).from(schema.events).where(inArray(schema.events.unitId, units)),
        );
  const status =
    typeof f.status === "string" && (BASKET_STATUSES as readonly string[]).includes(f.status)
      ? (f.status as (typeof BASKET_STATUSES)[number])
      : undefined;
  // Testing baskets stay out of the back office's figures unless `preview=true` asks for them (DESIGN.md 4).
  const preview = f.preview === true || f.preview === "true";
  const where = and(
    visible,
    idFilter(query, "eventId", schema.baskets.eventId) ?? idFilter(query, "event", schema.baskets.eventId),
    status ? eq(schema.baskets.status, status) : undefined,
    eq(schema.baskets.testing, preview),
    idFilter(query, "id", schema.baskets.id),
  );
  const rows = await db
    .select()
    .from(schema.baskets)
    .where(where)
    .orderBy(listOrder(query, SORTABLE))
    .limit(query.limit)
    .offset(query.offset)
    .all();
  const total = (await db.select({ n: count() }).from(schema.baskets).where(where).get())?.n ?? 0;
  setContentRange(c, "baskets", query.offset, rows.length, total);
  return answer(c, await presentBaskets(db, rows));
});

salesRoutes.get("/baskets/:id", async (c) => {
  const { database, config } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const basket = await basketById(database.db, idParam(c));
  if (!basket) throw notFound();
  await getVisibleEvent(database.db, user, basket.eventId);
  return answer(c, await presentBasketDetail(database.db, basket, config));
});

/** Point of sale (DESIGN.md 4 "Payments"): staff mark the invoice paid once the buyer paid on site. */
salesRoutes.post("/invoices/:id/mark-paid", async (c) => {
  const { database, onMailQueued } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  await readBody(c, z.strictObject({}));
  const row = await database.db
    .select({ invoice: schema.invoices, basket: schema.baskets })
    .from(schema.invoices)
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.invoices.basketId))
    .where(eq(schema.invoices.id, idParam(c)))
    .get();
  if (!row) throw notFound();
  await getVisibleEvent(database.db, user, row.basket.eventId);
  const intent = await database.db
    .select()
    .from(schema.paymentIntents)
    .where(eq(schema.paymentIntents.invoiceId, row.invoice.id))
    .get();
  if (intent?.moduleKey !== "point_of_sale") throw conflict("errors.invoice_not_point_of_sale");
  const result = await resolvePayment(database, {
    intentId: intent.id,
    pspId: intent.pspId,
    outcome: "success",
    now: c.get("deps").now?.() ?? new Date(),
  });
  if (result.changed) onMailQueued?.();
  return answer(c, { invoiceId: row.invoice.id, changed: result.changed, basketStatus: result.basket.status });
});

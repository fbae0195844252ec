// Billing information is written in one guarded batch (docs/decisions/0026): on every driver, over the wire too.
import { eq, schema } from "@ticketing/db";
import { camelizeKeys } from "@ticketing/shared/case";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BILLING,
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  type TestContext,
  WIRE_DRIVERS,
} from "../../test-support.ts";
import type { Basket, FrontendLogin } from "../baskets/baskets.ts";
import { type BillingInput, saveBillingInformation } from "./billing.ts";

describe.each(WIRE_DRIVERS)("billing information (%s)", (driver) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(driver);
  });
  afterAll(async () => ctx.close());

  const basketOf = async (id: number) =>
    (await ctx.database.db.select().from(schema.baskets).where(eq(schema.baskets.id, id)).get()) as Basket;
  const billingRows = async () => (await ctx.database.db.select().from(schema.billingInformation).all()).length;

  it("is answered as written, and the basket points at it, a second one replacing the first", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 5 });
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const first = await ctx.call("POST", "/frontend/billing-information", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, ...BILLING },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ first_name: BILLING.first_name, city: BILLING.city });
    expect((await basketOf(buyer.basketId)).billingInformationId).toBe(first.body.id);
    const second = await ctx.call("POST", "/frontend/billing-information", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, ...BILLING, city: "Genève" },
    });
    expect(second.body.id).not.toBe(first.body.id);
    expect((await basketOf(buyer.basketId)).billingInformationId).toBe(second.body.id);
  });

  it("refuses a basket checked out since it was read (409), and writes nothing", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 5 });
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const read = await basketOf(buyer.basketId);
    const login = (await ctx.database.db
      .select()
      .from(schema.frontendLogins)
      .where(eq(schema.frontendLogins.id, read.createdById))
      .get()) as FrontendLogin;
    await ctx.database.db
      .update(schema.baskets)
      .set({ status: "payment_in_progress" })
      .where(eq(schema.baskets.id, buyer.basketId))
      .run();
    const before = await billingRows();
    const input = camelizeKeys(BILLING) as BillingInput;
    await expect(saveBillingInformation(ctx.database, read, login, input)).rejects.toMatchObject({ kind: "conflict" });
    expect(await billingRows()).toBe(before);
    expect((await basketOf(buyer.basketId)).billingInformationId).toBeNull();
  });
});

// What the support desk's tests share: a buyer checking out and paying, a basket row written directly.
import { eq, run, schema } from "@ticketing/db";
import { expect } from "vitest";
import {
  type createOnSaleEvent,
  payOnDemoPage,
  checkOut as postCheckout,
  type TestContext,
} from "../../test-support.ts";

/** How many pages a PDF of ours has (pdfkit writes one `/Type /Page` object a page). */
export const pageCount = (pdf: Buffer) => pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;

export type Sale = Awaited<ReturnType<typeof createOnSaleEvent>>;
export type Buyer = { token: string; basketId: number };

export function salesDesk(ctx: TestContext) {
  /** The buyer checks out (in `language`); answers the checkout's body (its invoice and payment page). */
  async function checkOut(shopper: Buyer, method: "online" | "point_of_sale" = "online", language = "en") {
    const checkout = await postCheckout(ctx, shopper, method, language);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    return checkout.body as { invoice: { id: number }; payment_url: string | null };
  }

  /** The buyer pays on the demo provider's page. */
  async function payOnline(shopper: Buyer, language = "en") {
    const checkout = await checkOut(shopper, "online", language);
    await payOnDemoPage(ctx, checkout.payment_url as string);
    return checkout;
  }

  const writeBasket = (basketId: number, values: Partial<typeof schema.baskets.$inferInsert>) =>
    ctx.database.transaction(function* (tx) {
      yield* run(tx.update(schema.baskets).set(values).where(eq(schema.baskets.id, basketId)).run());
    });
  return { checkOut, payOnline, writeBasket };
}

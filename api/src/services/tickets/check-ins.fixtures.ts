// What the check-in tests share: an event on sale with its owner signed in, a buyer's order and its tickets' signed
// codes, a scan at the door and the door's figures.
import { type Driver, eq, schema } from "@ticketing/db";
import { expect } from "vitest";
import { checkOut, createOnSaleEvent, loginAs, payOnDemoPage, readyBuyer, useTestContext } from "../../test-support.ts";
import { createTicketCode, ticketKeysOf } from "./ticket-codes.ts";

type Sale = Awaited<ReturnType<typeof createOnSaleEvent>>;

/** Registers the hooks of a test file's database on `driver`, and gives the helpers that use it. */
export function useCheckInDoor(driver: Driver) {
  const ctx = useTestContext(driver);
  const keys = () => ticketKeysOf(ctx.config.ticketSigningKey);

  /** An event on sale (an article of 25.00) and its owner signed in. */
  async function event() {
    const sale = await createOnSaleEvent(ctx, { stock: 50, price: 2500 });
    return { sale, staff: await loginAs(ctx, sale.email, sale.password) };
  }

  /**
   * A buyer's basket of `count` articles: paid online on the demo page unless `pay` is false (then checked out and
   * waiting for the payment, or never checked out with `checkOut` false). With `previewBy`, staff's test order.
   * Answers the basket's article lines and each one's signed code, as its ticket's QR code carries it.
   */
  async function order(
    sale: Sale,
    options: { count?: number; pay?: boolean; checkOut?: boolean; previewBy?: string; lastName?: string } = {},
  ) {
    const { count = 1, pay = true, previewBy, lastName = "Lovelace" } = options;
    const buyer = await readyBuyer(ctx, sale, { count, previewBy, billing: { last_name: lastName } });
    if (options.checkOut !== false) {
      const checkout = await checkOut(ctx, buyer);
      expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
      if (pay && checkout.body.payment_url) await payOnDemoPage(ctx, checkout.body.payment_url);
    }
    const lines = await ctx.database.db
      .select()
      .from(schema.selectedNodes)
      .where(eq(schema.selectedNodes.basketId, buyer.basketId))
      .all();
    const basket = await ctx.database.db
      .select()
      .from(schema.baskets)
      .where(eq(schema.baskets.id, buyer.basketId))
      .get();
    const code = (itemId: number) =>
      createTicketCode(keys(), { eventId: sale.event.id, basketId: buyer.basketId, itemId });
    return { buyer, basket, lines, codes: lines.map((line) => code(line.id)) };
  }

  async function scan(eventId: number, token: string | undefined, code: string, preview?: boolean, app = ctx.app) {
    const response = await app.request(`/api/v1/events/${eventId}/check-ins`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ code, ...(preview === undefined ? {} : { preview }) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the API answered
    return { status: response.status, body: (await response.json()) as any };
  }

  const counts = async (eventId: number, token: string, preview = false) =>
    (await ctx.call("GET", `/events/${eventId}/check-ins/counts?preview=${preview}`, { token })).body;
  return { ctx, keys, event, order, scan, counts };
}

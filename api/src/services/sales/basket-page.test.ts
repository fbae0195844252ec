// A basket's page in the back office (issue 13): its articles' status, their form answers and the mails about it.
import { describe, expect, it } from "vitest";
import {
  BILLING,
  createOnSaleEvent,
  DRIVERS,
  eventResourceCreator,
  loginAs,
  payOnDemoPage,
  readyBuyer,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";
import { salesDesk } from "./sales.fixtures.ts";

describe.each(DRIVERS)("baskets in the back office (%s)", (driver) => {
  const ctx = useTestContext(driver);
  const { checkOut, payOnline, writeBasket } = salesDesk(ctx);

  describe("a basket's page: its articles' status", () => {
    const statusesOf = async (staff: string, basketId: number) => {
      const page = await ctx.call("GET", `/baskets/${basketId}`, { token: staff });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      return (page.body.articles as { id: number; title: string; status: string }[]).map((a) => [a.title, a.status]);
    };

    it("reads each article with its basket: held, awaiting payment, sold once paid, refunded, expired", async () => {
      const sale = await createOnSaleEvent(ctx, { stock: 10, price: 2500 });
      const staff = await loginAs(ctx, sale.email, sale.password);
      const shopper = await readyBuyer(ctx, sale, { count: 2 });
      expect(await statusesOf(staff, shopper.basketId)).toEqual([
        ["Entry", "held"],
        ["Entry", "held"],
      ]);
      const checkout = await checkOut(shopper);
      expect(await statusesOf(staff, shopper.basketId)).toEqual([
        ["Entry", "awaiting_payment"],
        ["Entry", "awaiting_payment"],
      ]);
      await payOnDemoPage(ctx, checkout.payment_url as string);
      // Paid: its articles are sold (their lines stay "held": the basket's status says they were paid).
      expect(await statusesOf(staff, shopper.basketId)).toEqual([
        ["Entry", "sold"],
        ["Entry", "sold"],
      ]);
      const [, second] = (await ctx.call("GET", `/baskets/${shopper.basketId}`, { token: staff })).body.articles;
      const refund = await ctx.call("POST", `/baskets/${shopper.basketId}/refunds`, {
        token: staff,
        body: { item_ids: [second.id], reason: "Cannot come" },
      });
      expect(refund.status, JSON.stringify(refund.body)).toBe(201);
      expect(await statusesOf(staff, shopper.basketId)).toEqual([
        ["Entry", "sold"],
        ["Entry", "refunded"],
      ]);

      // A basket left before checkout: once its reservation ran out (and the buyer came back), expired.
      const gone = await readyBuyer(ctx, sale, { count: 1 });
      await writeBasket(gone.basketId, { expiresAt: new Date(Date.now() - 1000).toISOString() });
      await ctx.call("GET", `/frontend/baskets/${gone.basketId}`, { token: gone.token });
      expect(await statusesOf(staff, gone.basketId)).toEqual([["Entry", "expired"]]);
    });
  });

  describe("a basket's page: its articles' form answers and its mails", () => {
    it("shows each article's answers (refunded ones too) and the mails about the basket, newest first", async () => {
      // Forms are added while the event is a draft; then it goes on sale.
      const sale = await createOnSaleEvent(ctx, { stock: 10, price: 2500, status: "draft" });
      const staff = await loginAs(ctx, sale.email, sale.password);
      const create = eventResourceCreator(ctx, staff, sale.event.id);
      const group = await create("node-extra-info-groups", {
        name: "Attendee",
        is_required: true,
        node_configuration_ids: [sale.article.configuration.id],
      });
      const badge = await create("node-extra-infos", { group_id: group, name: "Name on badge", type: "text" });
      const diet = await create("node-extra-infos", { group_id: group, name: "Diet", type: "text" });
      await writeEventRow(ctx, sale.event.id, { status: "public", moderationStatus: "validated" });

      const shopper = await readyBuyer(ctx, sale, { count: 2 });
      const other = await readyBuyer(ctx, sale, { billing: { email: "someone.else@example.org" } });
      const forms = await ctx.call("GET", `/frontend/baskets/${shopper.basketId}/forms`, { token: shopper.token });
      const [first, second] = forms.body.map((entry: { item_id: number }) => entry.item_id) as number[];
      const answer = (itemId: number | undefined, badgeName: string, dietText: string) =>
        ctx.call("PUT", `/frontend/selected-nodes/${itemId}/extra-infos`, {
          token: shopper.token,
          body: {
            answers: [
              { extra_info_id: badge, value: badgeName },
              { extra_info_id: diet, value: dietText },
            ],
          },
        });
      expect((await answer(first, "Ada", "vegan")).status).toBe(200);
      expect((await answer(second, "Charles", "none")).status).toBe(200);
      const expected = [
        {
          item_id: first,
          answers: [
            { group: "Attendee", name: "Name on badge", type: "text", value: "Ada" },
            { group: "Attendee", name: "Diet", type: "text", value: "vegan" },
          ],
        },
        {
          item_id: second,
          answers: [
            { group: "Attendee", name: "Name on badge", type: "text", value: "Charles" },
            { group: "Attendee", name: "Diet", type: "text", value: "none" },
          ],
        },
      ];
      const before = await ctx.call("GET", `/baskets/${shopper.basketId}`, { token: staff });
      expect(before.body.answers).toEqual(expected);
      expect(before.body.mails).toEqual([]);

      await payOnline(shopper);
      await payOnline(other);
      const paid = await ctx.call("GET", `/baskets/${shopper.basketId}`, { token: staff });
      expect(paid.body.status).toBe("validated");
      expect(paid.body.mails).toEqual([
        {
          id: expect.any(Number),
          kind: "order_confirmation",
          to: BILLING.email,
          status: "pending",
          subject: null,
          created_at: expect.any(String),
          sent_at: null,
        },
      ]);

      // An article refunded keeps its answers on the page; the refund's mail comes first.
      const refunded = await ctx.call("POST", `/baskets/${shopper.basketId}/refunds`, {
        token: staff,
        body: { item_ids: [second], reason: "Cannot come" },
      });
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
      const after = await ctx.call("GET", `/baskets/${shopper.basketId}`, { token: staff });
      expect(after.body.items.map((item: { id: number }) => item.id)).toEqual([first]);
      expect(after.body.answers).toEqual(expected);
      expect(after.body.mails.map((mail: { kind: string }) => mail.kind)).toEqual(["refund", "order_confirmation"]);
      // The other basket's page shows its own mail only.
      const otherPage = await ctx.call("GET", `/baskets/${other.basketId}`, { token: staff });
      expect(otherPage.body.mails).toMatchObject([{ kind: "order_confirmation", to: "someone.else@example.org" }]);
      expect(otherPage.body.answers).toEqual([]);
    });
  });
});

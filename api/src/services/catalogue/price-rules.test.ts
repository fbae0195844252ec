// Issue 28 #5 (docs/decisions/0032): the order price rules are applied in is the organiser's to change, one
// place up or down in the list of rules pricing an element, kept in `order` on the server.
import { eq, run, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addCatalogueElement,
  createOnSaleEvent,
  createTestContext,
  eventResourceCreator,
  FRENCH,
  loginAs,
  signedInMember,
  signedInUser,
  type TestContext,
} from "../../test-support.ts";

describe("moving a price rule up or down", () => {
  let ctx: TestContext;
  let owner: string;
  let eventId: number;
  let adult: number;
  let groupPlus: number;
  let adultSet: number;
  let entrySet: number;
  let otherEventNode: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    const sale = await createOnSaleEvent(ctx, { stock: 10, status: "draft" });
    owner = await loginAs(ctx, sale.email, sale.password);
    eventId = sale.event.id;
    entrySet = sale.article.priceRule.id;
    const create = eventResourceCreator(ctx, owner, eventId);
    const rootId = sale.article.node.parentId as number;
    // The group's "+5 (applies to the elements below)" made first, the child's "set the price to 20" after it.
    const group = await addCatalogueElement(create, {
      parentId: rootId,
      category: "multiple_choice",
      title: "Tickets",
    });
    groupPlus = await create("node-price-rules", {
      label: "Service fee",
      mode: "plus",
      value: 500,
      should_propagate: true,
      order: 1,
      node_configuration_ids: [group.configuration],
    });
    const child = await addCatalogueElement(create, { parentId: group.node, category: "article", title: "Adult" });
    adult = child.node;
    adultSet = await create("node-price-rules", {
      label: "Adult price",
      mode: "set",
      value: 2000,
      order: 2,
      node_configuration_ids: [child.configuration],
    });
    otherEventNode = (await createOnSaleEvent(ctx, { stock: 1, status: "draft" })).article.node.id;
  });
  afterAll(async () => ctx.close());

  const basePrice = async (nodeId: number) => {
    const preview = await ctx.call("GET", `/events/${eventId}/price-preview`, { token: owner });
    return (preview.body as { node_id: number; price: number }[]).find((row) => row.node_id === nodeId)?.price;
  };
  const orders = async () =>
    Object.fromEntries(
      (
        await ctx.database.db
          .select()
          .from(schema.nodePriceRules)
          .where(eq(schema.nodePriceRules.eventId, eventId))
          .all()
      ).map((rule) => [rule.id, rule.order]),
    );
  const move = (ruleId: number, body: unknown, token: string | undefined = owner, headers = {}) =>
    ctx.call("POST", `/node-price-rules/${ruleId}/move`, { token, body, headers });

  it("puts the child's set before the group's surcharge: the surcharge counts, the event's order stays dense", async () => {
    expect(await basePrice(adult)).toBe(2000); // the +5 is overridden
    const moved = await move(adultSet, { node_id: adult, direction: "up" });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ id: adultSet, order: 1 });
    expect(await basePrice(adult)).toBe(2500);
    // Entry's own rule, which prices another element, kept its place (first); the list is 0, 1, 2.
    expect(await orders()).toEqual({ [entrySet]: 0, [adultSet]: 1, [groupPlus]: 2 });
    // And back down: the surcharge is overridden again.
    expect((await move(adultSet, { node_id: adult, direction: "down" })).status).toBe(200);
    expect(await basePrice(adult)).toBe(2000);
    expect((await move(groupPlus, { node_id: adult, direction: "down" })).status).toBe(200);
    expect(await basePrice(adult)).toBe(2500);
  });

  it("refuses a move past either end of the element's list with 409, and changes nothing", async () => {
    const before = await orders();
    const first = await move(adultSet, { node_id: adult, direction: "up" });
    expect(first).toMatchObject({
      status: 409,
      body: { errors: ["This rule is already the first applied to this element"] },
    });
    const last = await move(groupPlus, { node_id: adult, direction: "down" }, owner, FRENCH);
    expect(last).toMatchObject({
      status: 409,
      body: { errors: ["Cette règle est déjà la dernière appliquée à cet élément"] },
    });
    expect(await orders()).toEqual(before);
  });

  it("answers 400 on the element for a rule that does not price it, or an element of another event", async () => {
    const notAttached = await move(entrySet, { node_id: adult, direction: "down" });
    expect(notAttached).toMatchObject({
      status: 400,
      body: { field_errors: { node_id: "This price rule does not price this element" } },
    });
    const elsewhere = await move(adultSet, { node_id: otherEventNode, direction: "up" });
    expect(elsewhere).toMatchObject({
      status: 400,
      body: { field_errors: { node_id: "This element is not one of the event's elements" } },
    });
    for (const body of [{ node_id: adult, direction: "sideways" }, { direction: "up" }, { node_id: adult }, []])
      expect((await move(adultSet, body)).status, JSON.stringify(body)).toBe(400);
    expect((await move(999_999, { node_id: adult, direction: "up" })).status).toBe(404);
  });

  it("lets the unit's members reorder; hides the rule from others; refuses once the event is not a draft", async () => {
    const unitId = (await ctx.database.db.select().from(schema.events).where(eq(schema.events.id, eventId)).get())
      ?.unitId as number;
    const member = await signedInMember(ctx, unitId);
    const outsider = await signedInUser(ctx, "outsider");
    const before = await orders();
    expect((await move(groupPlus, { node_id: adult, direction: "up" }, "")).status).toBe(401);
    expect((await move(groupPlus, { node_id: adult, direction: "up" }, outsider.token)).status).toBe(404);
    expect(await orders()).toEqual(before);
    expect((await move(groupPlus, { node_id: adult, direction: "up" }, member.token)).status).toBe(200);
    expect(await orders()).not.toEqual(before);
    // Public: editing is locked (the existing rule for every change of the tree) for organisers, not for superusers.
    await ctx.database.transaction(function* (tx) {
      yield* run(tx.update(schema.events).set({ status: "public" }).where(eq(schema.events.id, eventId)).run());
    });
    const locked = await orders();
    const refused = await move(groupPlus, { node_id: adult, direction: "down" });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatch(/Editing is locked/);
    expect(await orders()).toEqual(locked);
    const superuser = await signedInUser(ctx, "root", { isSuperuser: true });
    expect((await move(groupPlus, { node_id: adult, direction: "down" }, superuser.token)).status).toBe(200);
  });
});

// The ticket office sells exactly what the tree allows at exactly the price the rules give (issue 4), built
// through the back-office resources as the admin editor does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../services/accounts/sessions.ts";
import { createTestContext, lastMail, loginAs, type TestContext, writeEventRow } from "../test-support.ts";

type Node = {
  id: number;
  title: string;
  article_calculated_price: number | null;
  option_calculated_price: number | null;
  children: Node[];
  extra_info_groups: { extra_infos: { id: number }[] }[];
};
const flatten = (node: Node): Node[] => [node, ...node.children.flatMap(flatten)];

describe("a tree with groups, shared stock, conditional prices, access rules and forms", () => {
  let ctx: TestContext;
  let staff: string;
  let eventId: number;
  let moduleId: number;
  const ids: Record<string, number> = {};

  async function create(resource: string, body: Record<string, unknown>) {
    const response = await ctx.call("POST", `/${resource}`, { token: staff, body: { event_id: eventId, ...body } });
    if (response.status !== 201) throw new Error(`${resource}: ${JSON.stringify(response.body)}`);
    return response.body as { id: number };
  }
  async function element(parentId: number, category: string, title: string, cart: Record<string, unknown> = {}) {
    const configuration = await create("node-configurations", { category, title });
    const cartConfiguration = await create("node-cart-configurations", cart);
    const node = await create("nodes", {
      parent_id: parentId,
      configuration_id: configuration.id,
      cart_configuration_id: cartConfiguration.id,
    });
    return { node: node.id, configuration: configuration.id };
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    const user = await createUser(ctx.database, {
      email: "staff@example.org",
      password: "correct-horse-battery-1!",
      isSuperuser: true,
    });
    staff = await loginAs(ctx, "staff@example.org", "correct-horse-battery-1!");
    const event = await ctx.call("POST", "/events", {
      token: staff,
      body: {
        unit_id: user.personalUnitId,
        name: "Fest",
        frontend_title: "Fest",
        frontend_path: "fest",
        start_date: "2030-06-01T10:00:00Z",
        end_date: "2030-06-01T20:00:00Z",
      },
    });
    eventId = event.body.id;
    moduleId = event.body.registration_module_id;
    const root = event.body.root_node_id as number;
    const group = await element(root, "single_choice", "Pass", { range_min: 0, range_max: 1 });
    const day = await element(group.node, "article", "Day");
    const night = await element(group.node, "article", "Night");
    const parking = await element(day.node, "option", "Parking");
    const members = await element(root, "article", "Members' lounge");
    const past = await element(root, "article", "Yesterday's show");
    Object.assign(ids, {
      day: day.node,
      night: night.node,
      parking: parking.node,
      members: members.node,
      past: past.node,
    });
    // One stock of 2 shared by both passes.
    await create("node-limits", {
      label: "Passes",
      maximum: 2,
      node_configuration_ids: [day.configuration, night.configuration],
    });
    await create("node-price-rules", {
      label: "Pass",
      mode: "set",
      value: 5000,
      node_configuration_ids: [day.configuration, night.configuration],
    });
    await create("node-price-rules", {
      label: "Parking",
      mode: "set",
      value: 800,
      node_configuration_ids: [parking.configuration],
    });
    await create("node-price-rules", {
      label: "Lounge",
      mode: "set",
      value: 3000,
      node_configuration_ids: [members.configuration, past.configuration],
    });
    const student = await create("conditions", { name: "Student code" });
    await create("statements", {
      condition_id: student.id,
      left_hand_operand: "promotion_code",
      operator: "=",
      right_hand_value: "STUDENT",
    });
    await create("node-price-rules", {
      label: "-20 %",
      mode: "minus_percent",
      value: 2000,
      order: 1,
      condition_id: student.id,
      node_configuration_ids: [day.configuration, night.configuration],
    });
    await create("promotion-codes", { name: "Students", value: "STUDENT" });
    const domain = await create("conditions", { name: "Staff emails" });
    await create("statements", {
      condition_id: domain.id,
      left_hand_operand: "user_email",
      operator: "contains",
      right_hand_value: "@example.org",
    });
    await create("node-accesses", {
      label: "Staff only",
      is_accessible: true,
      condition_id: domain.id,
      node_configuration_ids: [members.configuration],
    });
    await create("node-availabilities", {
      name: "Over",
      starts_at: "2020-01-01T00:00:00Z",
      ends_at: "2020-01-02T00:00:00Z",
      node_configuration_ids: [past.configuration],
    });
    const form = await create("node-extra-info-groups", {
      name: "Attendee",
      is_required: true,
      node_configuration_ids: [day.configuration],
    });
    ids.birth = (
      await create("node-extra-infos", {
        group_id: form.id,
        name: "Date of birth",
        type: "dateMajor",
        is_required: true,
      })
    ).id;
    const range = await ctx.call(
      "PUT",
      `/node-cart-configurations/${(await ctx.call("GET", `/nodes/${group.node}`, { token: staff })).body.cart_configuration_id}`,
      { token: staff, body: { range_min: 3 } },
    );
    expect(range.status).toBe(400);
    await writeEventRow(ctx, eventId, { status: "public", moderationStatus: "validated" });
    await ctx.call("PUT", `/events/${eventId}`, {
      token: staff,
      body: { access_methods: ["anonymous", "trusted_email"] },
    });
  });
  afterAll(async () => ctx.close());

  async function anonymousBuyer() {
    const login = await ctx.call("POST", "/auth/anonymous-login", { body: { active_module_id: moduleId } });
    const token = login.body.access_token as string;
    const basket = await ctx.call("POST", "/frontend/baskets", { token, body: { event_id: eventId } });
    return { token, basketId: basket.body.id as number };
  }
  const tree = async (token: string, basketId?: number) =>
    flatten(
      (await ctx.call("GET", `/frontend/events/${eventId}/tree${basketId ? `?basket_id=${basketId}` : ""}`, { token }))
        .body.root,
    );
  const add = (buyer: { token: string; basketId: number }, nodeId: number, options: number[] = []) =>
    ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, node_id: nodeId, option_node_ids: options },
    });

  it("shows an anonymous visitor the passes at 50.00 and hides the staff lounge and what is no longer on sale", async () => {
    const buyer = await anonymousBuyer();
    const nodes = await tree(buyer.token, buyer.basketId);
    expect(nodes.map((n) => n.title)).toEqual(["Fest", "Pass", "Day", "Parking", "Night"]);
    expect(nodes.find((n) => n.title === "Day")?.article_calculated_price).toBe(5000);
    expect(nodes.find((n) => n.title === "Parking")?.option_calculated_price).toBe(800);
    expect((await add(buyer, ids.members as number)).status).toBe(404);
    expect((await add(buyer, ids.past as number)).status).toBe(404);
  });

  it("takes 20 % off with the promotion code, and shows the lounge to an @example.org email", async () => {
    const buyer = await anonymousBuyer();
    await ctx.call("POST", "/frontend/selected-promotion-codes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, value: "student" },
    });
    expect((await tree(buyer.token, buyer.basketId)).find((n) => n.title === "Night")?.article_calculated_price).toBe(
      4000,
    );
    await ctx.call("POST", "/auth/trusted-email-login", {
      body: { active_module_id: moduleId, email: "ada@example.org" },
    });
    const mail = await lastMail(ctx);
    const [loginPk, token] = new URL(String(mail?.payload.link)).pathname.split("/").slice(-2);
    const staffer = await ctx.call("POST", "/auth/trusted-email-login/validate", {
      body: { active_module_id: moduleId, login_pk: Number(loginPk), validation_token: token },
    });
    expect((await tree(staffer.body.access_token)).map((n) => n.title)).toContain("Members' lounge");
  });

  it("allows one choice in the single-choice group, asks for the form, and refuses the third pass of a shared stock of 2", async () => {
    const first = await anonymousBuyer();
    const dayWithParking = await add(first, ids.day as number, [ids.parking as number]);
    expect(dayWithParking.status).toBe(201);
    // The add answers the line as the basket then lists it: the article with its option, each priced.
    const listed = await ctx.call("GET", `/frontend/selected-nodes?basket_id=${first.basketId}`, {
      token: first.token,
    });
    expect(listed.body).toEqual([
      expect.objectContaining({ node_id: ids.day, price: 5800, article_price: 5000, options: [expect.anything()] }),
    ]);
    expect(dayWithParking.body).toEqual({ ...listed.body[0], basket_id: first.basketId });
    const other = await add(first, ids.night as number);
    expect(other).toMatchObject({ status: 400, body: { errors: ["Choose only one in this group"] } });
    await ctx.call("POST", "/frontend/billing-information", {
      token: first.token,
      body: {
        basket_id: first.basketId,
        first_name: "A",
        last_name: "B",
        email: "a@b.ch",
        address: "x",
        postal_code: "1",
        city: "c",
        country: "CH",
      },
    });
    const early = await ctx.call("POST", `/frontend/baskets/${first.basketId}/checkout`, {
      token: first.token,
      body: { payment_method: "online", terms_accepted: true },
    });
    expect(early).toMatchObject({ status: 400, body: { errors: ["Please fill in the forms of every ticket"] } });
    const forms = await ctx.call("GET", `/frontend/baskets/${first.basketId}/forms`, { token: first.token });
    const itemId = forms.body[0].item_id as number;
    expect(forms.body[0].groups[0].extra_infos[0]).toMatchObject({
      name: "Date of birth",
      type: "dateMajor",
      value: null,
    });
    const minor = await ctx.call("PUT", `/frontend/selected-nodes/${itemId}/extra-infos`, {
      token: first.token,
      body: { answers: [{ extra_info_id: ids.birth, value: "2015-03-01" }] },
    });
    expect(minor).toMatchObject({
      status: 400,
      body: {
        field_errors: { [`extra_info_${ids.birth}`]: "You must be at least 18 years old on the date of the event" },
      },
    });
    const major = await ctx.call("PUT", `/frontend/selected-nodes/${itemId}/extra-infos`, {
      token: first.token,
      body: { answers: [{ extra_info_id: ids.birth, value: "1990-03-01" }] },
    });
    expect(major.status).toBe(200);
    expect(
      (
        await ctx.call("POST", `/frontend/baskets/${first.basketId}/checkout`, {
          token: first.token,
          body: { payment_method: "online", terms_accepted: true },
        })
      ).status,
    ).toBe(200);
    const second = await anonymousBuyer();
    expect((await add(second, ids.night as number)).status).toBe(201);
    const third = await anonymousBuyer();
    expect(await add(third, ids.day as number)).toMatchObject({ status: 409, body: { errors: ["Sold out: Day"] } });
  });

  it("prices a new line with the basket's codes, and the lines already in it again when a code is applied or removed", async () => {
    // The passes are sold out by now: a poster with the same rules.
    const root = (await ctx.call("GET", `/events/${eventId}`, { token: staff })).body.root_node_id as number;
    const poster = await element(root, "article", "Poster");
    const student = await create("conditions", { name: "Student again" });
    await create("statements", {
      condition_id: student.id,
      left_hand_operand: "promotion_code",
      operator: "=",
      right_hand_value: "STUDENT",
    });
    await create("node-price-rules", { mode: "set", value: 5000, node_configuration_ids: [poster.configuration] });
    await create("node-price-rules", {
      mode: "minus_percent",
      value: 2000,
      order: 1,
      condition_id: student.id,
      node_configuration_ids: [poster.configuration],
    });
    const buyer = await anonymousBuyer();
    expect((await add(buyer, poster.node)).status).toBe(201);
    const basket = async () =>
      (await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token })).body;
    expect((await basket()).total).toBe(5000);
    const code = await ctx.call("POST", "/frontend/selected-promotion-codes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, value: "STUDENT" },
    });
    expect((await basket()).total).toBe(4000);
    // A line added while the code is applied is priced with it.
    expect((await add(buyer, poster.node)).body.price).toBe(4000);
    expect((await basket()).total).toBe(8000);
    await ctx.call("DELETE", `/frontend/selected-promotion-codes/${code.body.id}`, { token: buyer.token });
    expect((await basket()).total).toBe(10000);
  });

  it("asks for a choice in an option group with a minimum", async () => {
    const root = (await ctx.call("GET", `/events/${eventId}`, { token: staff })).body.root_node_id as number;
    const shirt = await element(root, "article", "Shirt");
    const size = await element(shirt.node, "single_choice", "Size", { range_min: 1, range_max: 1 });
    const small = await element(size.node, "option", "S");
    await create("node-price-rules", { mode: "set", value: 2000, node_configuration_ids: [shirt.configuration] });
    const buyer = await anonymousBuyer();
    const none = await add(buyer, shirt.node);
    expect(none).toMatchObject({ status: 400, body: { errors: ["Choose more in this group"] } });
    expect((await add(buyer, shirt.node, [small.node])).status).toBe(201);
  });
});

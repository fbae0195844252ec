import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../services/accounts/sessions.ts";
import { createTestContext, loginAs, type TestContext } from "../test-support.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

describe("the tree editor's calls", () => {
  let ctx: TestContext;
  let token: string;
  let eventId: number;
  let root: number;
  const nodes: number[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    const user = await createUser(ctx.database, { email: "ed@example.org", password: "correct-horse-battery-1!" });
    token = await loginAs(ctx, "ed@example.org", "correct-horse-battery-1!");
    const event = await ctx.call("POST", "/events", {
      token,
      body: {
        unit_id: user.personalUnitId,
        name: "E",
        frontend_title: "E",
        frontend_path: "editor",
        start_date: "2030-01-01T10:00:00Z",
        end_date: "2030-01-01T12:00:00Z",
      },
    });
    eventId = event.body.id;
    root = event.body.root_node_id;
    for (const [title, price] of [
      ["A", 1000],
      ["B", 2000],
      ["C", 3000],
    ] as const)
      nodes.push(
        (await ctx.call("POST", `/events/${eventId}/articles`, { token, body: { title, price, stock: 10 } })).body.node
          .id,
      );
  });
  afterAll(async () => ctx.close());

  const children = async (parentId: number) =>
    (
      await ctx.call(
        "GET",
        `/nodes?filter=${encodeURIComponent(JSON.stringify({ event_id: eventId, parent_id: parentId }))}&sort=${encodeURIComponent('["order","ASC"]')}`,
        { token },
      )
    ).body as { id: number; order: number }[];

  it("moves an element and keeps the order dense in both parents; refuses a move into its own subtree", async () => {
    const [a, b, c] = nodes as [number, number, number];
    await ctx.call("POST", `/nodes/${c}/move`, { token, body: { parent_id: root, order: 0 } });
    expect((await children(root)).map((n) => [n.id, n.order])).toEqual([
      [c, 0],
      [a, 1],
      [b, 2],
    ]);
    await ctx.call("POST", `/nodes/${a}/move`, { token, body: { parent_id: c, order: 0 } });
    expect((await children(root)).map((n) => [n.id, n.order])).toEqual([
      [c, 0],
      [b, 1],
    ]);
    expect((await children(c)).map((n) => n.order)).toEqual([0]);
    const loop = await ctx.call("POST", `/nodes/${c}/move`, { token, body: { parent_id: a, order: 0 } });
    expect(loop).toMatchObject({
      status: 400,
      body: { errors: ["An element cannot move into itself or its own children"] },
    });
    await ctx.call("POST", `/nodes/${a}/move`, { token, body: { parent_id: root, order: 5 } });
    expect((await children(root)).map((n) => n.order)).toEqual([0, 1, 2]);
  });

  it("duplicates an element right after it, with the same price and stock", async () => {
    const b = nodes[1] as number;
    const copy = await ctx.call("POST", `/nodes/${b}/duplicate`, { token, body: {} });
    expect(copy.status).toBe(201);
    const order = (await children(root)).map((n) => n.id);
    expect(order.indexOf(copy.body.id)).toBe(order.indexOf(b) + 1);
    const articles = (await ctx.call("GET", `/events/${eventId}/articles`, { token })).body as {
      node_id: number;
      price: number;
      stock: { limit_id: number };
    }[];
    const original = articles.find((x) => x.node_id === b);
    const duplicate = articles.find((x) => x.node_id === copy.body.id);
    expect(duplicate?.price).toBe(2000);
    expect(duplicate?.stock.limit_id).toBe(original?.stock.limit_id);
  });

  it("clears the Lausanne tax of every element below when it is cleared above", async () => {
    const [a, , c] = nodes as [number, number, number];
    await ctx.call("POST", `/nodes/${a}/move`, { token, body: { parent_id: c, order: 0 } });
    const configOf = async (id: number) =>
      (await ctx.call("GET", `/nodes/${id}`, { token })).body.configuration_id as number;
    for (const id of [a, c])
      await ctx.call("PUT", `/node-configurations/${await configOf(id)}`, {
        token,
        body: { is_subject_to_lausanne_tax: true },
      });
    await ctx.call("PUT", `/node-configurations/${await configOf(c)}`, {
      token,
      body: { is_subject_to_lausanne_tax: false },
    });
    expect(
      (await ctx.call("GET", `/node-configurations/${await configOf(a)}`, { token })).body.is_subject_to_lausanne_tax,
    ).toBe(false);
  });

  it("stores an uploaded image and serves it; refuses what is not an image", async () => {
    const form = new FormData();
    form.set("event_id", String(eventId));
    form.set("file", new File([PNG], "pixel.png", { type: "image/png" }));
    const response = await ctx.app.request("/api/v1/uploaded-images", {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(201);
    const { url } = (await response.json()) as { url: string };
    const served = await ctx.app.request(url);
    expect(served.headers.get("content-type")).toBe("image/png");
    const configurationId = (await ctx.call("GET", `/nodes/${nodes[0]}`, { token })).body.configuration_id;
    const image = Number(url.split("/").at(-2));
    const linked = await ctx.call("PUT", `/node-configurations/${configurationId}`, {
      token,
      body: { image_id: image },
    });
    expect(linked.body.image_id).toBe(image);
    const fake = new FormData();
    fake.set("event_id", String(eventId));
    fake.set("file", new File(["<script>"], "x.png", { type: "image/png" }));
    const refused = await ctx.app.request("/api/v1/uploaded-images", {
      method: "POST",
      body: fake,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(400);
  });

  it("previews prices for an email and codes", async () => {
    const condition = await ctx.call("POST", "/conditions", { token, body: { event_id: eventId, name: "VIP" } });
    await ctx.call("POST", "/statements", {
      token,
      body: {
        event_id: eventId,
        condition_id: condition.body.id,
        left_hand_operand: "promotion_code",
        operator: "=",
        right_hand_value: "VIP",
      },
    });
    const configs = await Promise.all(
      nodes.map(async (id) => (await ctx.call("GET", `/nodes/${id}`, { token })).body.configuration_id),
    );
    await ctx.call("POST", "/node-price-rules", {
      token,
      body: {
        event_id: eventId,
        mode: "minus",
        value: 500,
        order: 5,
        condition_id: condition.body.id,
        node_configuration_ids: configs,
      },
    });
    const plain = await ctx.call("GET", `/events/${eventId}/price-preview?email=x@example.org`, { token });
    const vip = await ctx.call("GET", `/events/${eventId}/price-preview?email=x@example.org&codes=VIP`, { token });
    const priceOf = (rows: { node_id: number; price: number }[], id: number) =>
      rows.find((r) => r.node_id === id)?.price;
    expect(priceOf(plain.body, nodes[0] as number)).toBe(1000);
    expect(priceOf(vip.body, nodes[0] as number)).toBe(500);
  });

  it("refuses an update that would put an element under itself or its own children, or move the root", async () => {
    const add = async (title: string) =>
      (await ctx.call("POST", `/events/${eventId}/articles`, { token, body: { title, price: 100, stock: 1 } })).body
        .node.id as number;
    const [outer, inner] = [await add("Outer"), await add("Inner")];
    expect((await ctx.call("PUT", `/nodes/${inner}`, { token, body: { parent_id: outer } })).status).toBe(200);
    const loop = "An element cannot move into itself or its own children";
    for (const [id, parentId] of [
      [outer, outer],
      [outer, inner],
    ])
      expect(await ctx.call("PUT", `/nodes/${id}`, { token, body: { parent_id: parentId } })).toMatchObject({
        status: 400,
        body: { errors: [loop], field_errors: { parent_id: loop } },
      });
    expect(await ctx.call("PUT", `/nodes/${root}`, { token, body: { parent_id: inner } })).toMatchObject({
      status: 409,
      body: { errors: ["The root element of an event stays at the top of its tree"] },
    });
    expect(
      await ctx.call("POST", `/nodes/${root}/move`, { token, body: { parent_id: inner, order: 0 } }),
    ).toMatchObject({ status: 409, body: { errors: ["The root element of an event stays at the top of its tree"] } });
    // The tree is still a tree: every walk of it answers.
    expect((await ctx.call("GET", `/events/${eventId}/articles`, { token })).status).toBe(200);
    expect((await ctx.call("GET", `/events/${eventId}/price-preview`, { token })).status).toBe(200);
    expect((await ctx.call("POST", `/nodes/${outer}/duplicate`, { token, body: {} })).status).toBe(201);
  });

  it("refuses to delete a configuration an element still uses, with 409", async () => {
    const configurationId = (await ctx.call("GET", `/nodes/${nodes[1]}`, { token })).body.configuration_id;
    const refused = await ctx.call("DELETE", `/node-configurations/${configurationId}`, { token });
    expect(refused).toMatchObject({
      status: 409,
      body: { errors: ["This is still used by other elements: remove them first"] },
    });
  });
});

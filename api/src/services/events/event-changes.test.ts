// Re-publishing an approved event (ADR 0031): back in draft, it keeps its approval only while nothing changes; the
// first change of any kind sends it back to moderation in the same write, and it goes public again only once
// approved again. A public event's communication texts may still be fixed: they go back to the moderators.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, DRIVERS, signedInUser, type TestContext } from "../../test-support.ts";

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON
  body: any;
}

describe.each(DRIVERS)("changing an approved event (%s)", (driver) => {
  let ctx: TestContext;
  let organiser: string;
  let moderator: string;
  let unitId: number;
  let paths = 0;
  beforeAll(async () => {
    ctx = await createTestContext(driver);
    const org = await signedInUser(ctx, "org");
    unitId = org.user.personalUnitId as number;
    organiser = org.token;
    moderator = (await signedInUser(ctx, "mod", { isSuperuser: true })).token;
  });
  afterAll(async () => ctx.close());

  const as = (token: string) => ({
    get: (path: string): Promise<Answer> => ctx.call("GET", path, { token }),
    post: (path: string, body: object = {}): Promise<Answer> => ctx.call("POST", path, { token, body }),
    put: (path: string, body: object): Promise<Answer> => ctx.call("PUT", path, { token, body }),
    delete: (path: string): Promise<Answer> => ctx.call("DELETE", path, { token }),
  });
  const org = () => as(organiser);
  const mod = () => as(moderator);

  /** An event with an article, approved, made public, then set back to draft by its organiser: the case. */
  async function publishedThenDraft() {
    paths += 1;
    const created = await org().post("/events", {
      unit_id: unitId,
      name: "Gala",
      frontend_title: "Gala",
      frontend_path: `gala-${paths}`,
      start_date: "2030-05-01T18:00:00Z",
      end_date: "2030-05-01T23:00:00Z",
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const article = await org().post(`/events/${id}/articles`, { title: "Seat", price: 2500, stock: 10 });
    expect(article.status).toBe(201);
    const fee = await org().post("/node-price-rules", {
      event_id: id,
      label: "Booking fee",
      mode: "plus",
      value: 200,
      node_configuration_ids: [article.body.configuration.id],
    });
    expect(fee.status).toBe(201);
    await org().post(`/events/${id}/moderation/request`);
    expect((await mod().post(`/events/${id}/moderation/approve`)).body.moderation_status).toBe("validated");
    expect((await org().put(`/events/${id}`, { status: "public" })).body.status).toBe("public");
    const draft = await org().put(`/events/${id}`, { status: "draft" });
    expect(draft.body).toMatchObject({ status: "draft", moderation_status: "validated" });
    return {
      id,
      record: (await org().get(`/events/${id}`)).body,
      configurationId: article.body.configuration.id as number,
      nodeId: article.body.node.id as number,
      rootNodeId: created.body.root_node_id as number,
      priceRuleId: article.body.price_rule.id as number,
      feeRuleId: fee.body.id as number,
    };
  }

  const moderationOf = async (id: number) => (await mod().get(`/events/${id}`)).body.moderation_status as string;
  const queue = async () =>
    (
      await mod().get(`/events?filter=${encodeURIComponent(JSON.stringify({ moderation_status: "requested" }))}`)
    ).body.map((event: { id: number }) => event.id) as number[];

  type Event = Awaited<ReturnType<typeof publishedThenDraft>>;
  const CHANGES: [string, (event: Event) => Promise<Answer>][] = [
    ["its name (event fields)", (e) => org().put(`/events/${e.id}`, { name: "Gala, renamed" })],
    ["its welcome text", (e) => org().put(`/events/${e.id}`, { ...e.record, welcome_text: "Now with dinner" })],
    ["its payment term (payment settings)", (e) => org().put(`/events/${e.id}`, { payment_term_minutes: 45 })],
    ["its point of sale (payment settings)", (e) => org().put(`/events/${e.id}`, { is_point_of_sale_enabled: true })],
    ["its sign-in methods", (e) => org().put(`/events/${e.id}`, { access_methods: ["anonymous", "trusted_email"] })],
    [
      "its registrations window (dates)",
      (e) => org().put(`/events/${e.id}`, { registrations_end_date: "2030-04-30T12:00:00Z" }),
    ],
    ["an article added", (e) => org().post(`/events/${e.id}/articles`, { title: "Box", price: 9000, stock: 2 })],
    ["an element's title", (e) => org().put(`/node-configurations/${e.configurationId}`, { title: "Front seat" })],
    [
      "an element added",
      (e) => org().post("/node-configurations", { event_id: e.id, category: "option", title: "Cushion" }),
    ],
    ["an element moved", (e) => org().post(`/nodes/${e.nodeId}/move`, { parent_id: e.rootNodeId, order: 0 })],
    ["an element duplicated", (e) => org().post(`/nodes/${e.nodeId}/duplicate`)],
    ["a price rule's value", (e) => org().put(`/node-price-rules/${e.priceRuleId}`, { value: 1000 })],
    [
      "a price rule added",
      (e) =>
        org().post("/node-price-rules", {
          event_id: e.id,
          label: "Late fee",
          mode: "plus",
          value: 500,
          node_configuration_ids: [e.configurationId],
        }),
    ],
    [
      "the order of its price rules",
      (e) => org().post(`/node-price-rules/${e.feeRuleId}/move`, { node_id: e.nodeId, direction: "up" }),
    ],
    ["a price rule deleted", (e) => org().delete(`/node-price-rules/${e.priceRuleId}`)],
    [
      "a promotion code",
      (e) => org().post("/promotion-codes", { event_id: e.id, name: "Early birds", value: "EARLY" }),
    ],
    [
      "the confirmation mail's subject",
      (e) => org().put(`/events/${e.id}/communication`, { order_confirmation_subject_en: "Your seat, at last" }),
    ],
    ["the reply-to address", (e) => org().put(`/events/${e.id}/communication`, { reply_to: "box@example.org" })],
  ];

  it.each(CHANGES)(
    "sends it back to moderation once %s changed: public again only once approved again",
    async (_, change) => {
      const event = await publishedThenDraft();
      const changed = await change(event);
      expect(changed.status, JSON.stringify(changed.body)).toBeLessThan(300);
      expect(await moderationOf(event.id)).toBe("not_requested");
      expect((await org().get(`/events/${event.id}`)).body.moderation_description).toBeNull();
      const refused = await org().put(`/events/${event.id}`, { status: "public" });
      expect(refused).toMatchObject({
        status: 409,
        body: { errors: ["The event must be validated by a moderator before it goes public"] },
      });
      expect((await ctx.call("GET", `/events/public-infos?path=gala-${paths}`)).status).toBe(404);
      // Asked again, it is in the moderators' queue; approved, it goes public.
      expect(await queue()).not.toContain(event.id);
      await org().post(`/events/${event.id}/moderation/request`);
      expect(await queue()).toContain(event.id);
      await mod().post(`/events/${event.id}/moderation/approve`);
      expect((await org().put(`/events/${event.id}`, { status: "public" })).body.status).toBe("public");
    },
  );

  it("keeps the approval of an event set back to draft and public again with nothing changed, forms sent back whole", async () => {
    const event = await publishedThenDraft();
    // The editor's, the communication page's and an element's forms saved as they came.
    expect((await org().put(`/events/${event.id}`, event.record)).status).toBe(200);
    const communication = (await org().get(`/events/${event.id}/communication`)).body;
    expect((await org().put(`/events/${event.id}/communication`, communication)).status).toBe(200);
    const configuration = (await org().get(`/node-configurations/${event.configurationId}`)).body;
    expect((await org().put(`/node-configurations/${event.configurationId}`, configuration)).status).toBe(200);
    const rule = (await org().get(`/node-price-rules/${event.priceRuleId}`)).body;
    expect((await org().put(`/node-price-rules/${event.priceRuleId}`, rule)).status).toBe(200);
    expect(await moderationOf(event.id)).toBe("validated");
    expect((await org().put(`/events/${event.id}`, { status: "public" })).body).toMatchObject({
      status: "public",
      moderation_status: "validated",
    });
  });

  it("refuses a change and going public in one request, changing nothing", async () => {
    const event = await publishedThenDraft();
    const both = await org().put(`/events/${event.id}`, { name: "Sneaked in", status: "public" });
    expect(both.status).toBe(409);
    expect((await org().get(`/events/${event.id}`)).body).toMatchObject({
      name: "Gala",
      status: "draft",
      moderation_status: "validated",
    });
  });

  it("writes the moderation with the change: a refused change leaves the approval", async () => {
    const event = await publishedThenDraft();
    const other = await publishedThenDraft();
    // The article's parent belongs to another event: refused inside the write.
    const refused = await org().post(`/events/${event.id}/articles`, {
      title: "Box",
      price: 9000,
      stock: 2,
      parent_id: other.rootNodeId,
    });
    expect(refused.status).toBe(400);
    expect(await moderationOf(event.id)).toBe("validated");
  });

  it("keeps the approval when a superuser changes the event: they are the moderators", async () => {
    const event = await publishedThenDraft();
    expect((await mod().put(`/events/${event.id}`, { name: "Fixed by support" })).status).toBe(200);
    expect((await mod().put(`/node-price-rules/${event.priceRuleId}`, { value: 3000 })).status).toBe(200);
    expect(await moderationOf(event.id)).toBe("validated");
  });

  it("lets the organiser fix a public event's texts, which go back to the moderators while it stays on sale", async () => {
    const event = await publishedThenDraft();
    await org().put(`/events/${event.id}`, { status: "public" });
    const fixed = await org().put(`/events/${event.id}/communication`, {
      order_confirmation_subject_fr: "Vos billets pour le Gala",
      pdf_ticket_text_en: "Doors open at 7 pm",
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({
      order_confirmation_subject_fr: "Vos billets pour le Gala",
      pdf_ticket_text_en: "Doors open at 7 pm",
    });
    expect((await org().get(`/events/${event.id}`)).body).toMatchObject({
      status: "public",
      moderation_status: "requested",
    });
    expect((await ctx.call("GET", `/events/public-infos?path=gala-${paths}`)).status).toBe(200);
    expect(await queue()).toContain(event.id);
    // The rest of the communication, and the event itself, stay locked while it is public.
    for (const body of [
      { reply_to: "box@example.org" },
      { confirmation_redirect_url: "https://example.org/thanks" },
      { sender_name: "The Gala" },
      { is_pdf_ticket_enabled: false },
      { order_confirmation_body_en: "Hello", sender_name: "The Gala" },
    ]) {
      const locked = await org().put(`/events/${event.id}/communication`, body);
      expect(locked.status, JSON.stringify(body)).toBe(409);
      expect(locked.body.errors[0]).toMatch(/^Editing is locked because the event is not a draft/);
    }
    expect((await org().put(`/events/${event.id}`, { name: "Renamed" })).status).toBe(409);
    // The moderators approve the new texts, or ask for changes the organiser makes live and submits again.
    await mod().post(`/events/${event.id}/moderation/request-changes`, { description: "Not in capitals, please" });
    expect((await org().put(`/events/${event.id}/communication`, { pdf_ticket_text_en: "Doors: 7 pm" })).status).toBe(
      200,
    );
    expect(await moderationOf(event.id)).toBe("change_requested");
    await org().post(`/events/${event.id}/moderation/request`);
    await mod().post(`/events/${event.id}/moderation/approve`);
    expect(await moderationOf(event.id)).toBe("validated");
  });

  it("keeps a closed event's texts locked", async () => {
    const event = await publishedThenDraft();
    await org().put(`/events/${event.id}`, { status: "public" });
    await org().put(`/events/${event.id}`, { status: "closed" });
    const locked = await org().put(`/events/${event.id}/communication`, { pdf_ticket_text_en: "Too late" });
    expect(locked.status).toBe(409);
    expect(await moderationOf(event.id)).toBe("validated");
  });
});

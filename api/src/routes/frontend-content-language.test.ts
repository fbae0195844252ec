// The ticket office in the buyer's language (issue 34, docs/decisions/0043): what an organiser wrote in English and
// French reaches a French buyer in French and an English one in English, an empty French text reads as the English,
// and a basket keeps the French of what it holds.
import { eq, run, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import { renderMail } from "../services/mail/templates/registry.ts";
import { freeOne, join, mailsAbout, provedBuyer, soldOutSale } from "../services/waiting-list/entries.fixtures.ts";
import {
  addCatalogueElement,
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  eventResourceCreator,
  FRENCH,
  loginAs,
  type TestContext,
  useTestContext,
  writeEventRow,
} from "../test-support.ts";

const ENGLISH = { "accept-language": "en-GB,en;q=0.9" };

type Node = { title: string; description: string; tags: string[]; children: Node[]; extra_info_groups: Group[] };
type Group = { name: string; help_text: string; extra_infos: Field[] };
type Field = { id: number; name: string; text: string; help_text: string; choices: string[]; choice_labels: string[] };

/**
 * A public event whose day pass is written in both languages, its evening pass in English only, with a form and a
 * point of sale whose description is in English only.
 */
async function bilingualEvent(ctx: TestContext) {
  const sale = await createOnSaleEvent(ctx, { stock: 10, status: "draft" });
  const staff = await loginAs(ctx, sale.email, sale.password);
  const create = eventResourceCreator(ctx, staff, sale.event.id);
  const pass = sale.article.configuration.id;
  const renamed = await ctx.call("PUT", `/node-configurations/${pass}`, {
    token: staff,
    body: {
      title: "Day pass",
      title_fr: "Pass journée",
      description: "Entry all day",
      description_fr: "Entrée toute la journée",
    },
  });
  expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  expect(renamed.body).toMatchObject({ title_fr: "Pass journée", description_fr: "Entrée toute la journée" });
  await create("node-tags", { name: "Family", name_fr: "Famille", node_configuration_id: pass });
  const group = await create("node-extra-info-groups", {
    name: "Attendee",
    name_fr: "Participant",
    help_text: "Who comes",
    help_text_fr: "Qui vient",
    node_configuration_ids: [pass],
  });
  const meal = await create("node-extra-infos", {
    group_id: group,
    name: "Meal",
    name_fr: "Repas",
    text: "Your meal",
    text_fr: "Votre repas",
    type: "choice",
    is_required: true,
    choices_json: ["Vegetarian", "Meat"],
    choices_fr_json: ["Végétarien", "Viande"],
  });
  const evening = await addCatalogueElement(create, {
    parentId: sale.article.node.parentId as number,
    category: "article",
    title: "Evening pass",
    price: 1000,
    stock: { label: "Evening", maximum: 5 },
  });
  await create("points-of-sale", {
    title: "Box office",
    title_fr: "Billetterie",
    description: "Pay in cash",
    description_fr: "",
    location: "Main hall",
    location_fr: "Grande salle",
  });
  await writeEventRow(ctx, sale.event.id, {
    status: "public",
    moderationStatus: "validated",
    frontendTitle: "Summer fair",
    frontendTitleFr: "Fête d'été",
    welcomeText: "Welcome",
    welcomeTextFr: "Bienvenue",
    locationText: "",
    locationTextFr: "Place du Marché",
  });
  return { ...sale, staff, pass, group, meal, evening };
}

const treeOf = async (ctx: TestContext, eventId: number, headers: Record<string, string>) => {
  const answer = await ctx.call("GET", `/frontend/events/${eventId}/tree`, { headers });
  expect(answer.status).toBe(200);
  const children = (answer.body.root as Node).children;
  const byTitle = (title: string) => children.find((child) => child.title === title);
  return { children, byTitle };
};

describe.each(DRIVERS)("organiser texts in the buyer's language (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("shows a French buyer the French tree and an English one the English, each from its own cached answer", async () => {
    const sale = await bilingualEvent(ctx);
    // English first, then French, then English again: the cache per catalogue version keeps one answer per language.
    for (const round of [1, 2]) {
      const english = await treeOf(ctx, sale.event.id, ENGLISH);
      const dayPass = english.byTitle("Day pass");
      expect(dayPass, `round ${round}`).toMatchObject({ description: "Entry all day", tags: ["Family"] });
      expect(english.byTitle("Pass journée")).toBeUndefined();
      expect(dayPass?.extra_info_groups[0]).toMatchObject({ name: "Attendee", help_text: "Who comes" });
      expect(dayPass?.extra_info_groups[0]?.extra_infos[0]).toMatchObject({
        name: "Meal",
        text: "Your meal",
        choices: ["Vegetarian", "Meat"],
        choice_labels: ["Vegetarian", "Meat"],
      });

      const french = await treeOf(ctx, sale.event.id, FRENCH);
      const passJournee = french.byTitle("Pass journée");
      expect(passJournee, `round ${round}`).toMatchObject({
        description: "Entrée toute la journée",
        tags: ["Famille"],
      });
      expect(french.byTitle("Day pass")).toBeUndefined();
      expect(passJournee?.extra_info_groups[0]).toMatchObject({ name: "Participant", help_text: "Qui vient" });
      expect(passJournee?.extra_info_groups[0]?.extra_infos[0]).toMatchObject({
        name: "Repas",
        text: "Votre repas",
        // What is sent and stored stays the English; the French is what the buyer reads.
        choices: ["Vegetarian", "Meat"],
        choice_labels: ["Végétarien", "Viande"],
      });
      // Written in English only, the evening pass reads in English to a French buyer, never empty.
      expect(french.byTitle("Evening pass")).toBeDefined();
    }
  });

  it("gives the event's public texts, its points of sale and the home list in the caller's language", async () => {
    const sale = await bilingualEvent(ctx);
    const path = `/events/public-infos?path=${sale.event.frontendPath}`;
    expect((await ctx.call("GET", path, { headers: FRENCH })).body).toMatchObject({
      frontend_title: "Fête d'été",
      welcome_text: "Bienvenue",
      location_text: "Place du Marché",
    });
    // The location, written in French only, is the one an English buyer reads too.
    expect((await ctx.call("GET", path, { headers: ENGLISH })).body).toMatchObject({
      frontend_title: "Summer fair",
      welcome_text: "Welcome",
      location_text: "Place du Marché",
    });
    const home = await ctx.call("GET", "/events/public-infos", { headers: FRENCH });
    expect(home.body.find((event: { id: number }) => event.id === sale.event.id)?.frontend_title).toBe("Fête d'été");
    const points = await ctx.call("GET", `/frontend/events/${sale.event.id}/points-of-sale`, { headers: FRENCH });
    expect(points.body).toEqual([
      expect.objectContaining({ title: "Billetterie", description: "Pay in cash", location: "Grande salle" }),
    ]);
    expect(points.body[0]).not.toHaveProperty("title_fr");
    const english = await ctx.call("GET", `/frontend/events/${sale.event.id}/points-of-sale`, { headers: ENGLISH });
    expect(english.body[0]).toMatchObject({ title: "Box office", location: "Main hall" });
  });

  it("keeps the French title of an article added, shows the basket in the caller's language, stores a French-labelled answer as its English choice", async () => {
    const sale = await bilingualEvent(ctx);
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const added = await ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      headers: FRENCH,
      body: { basket_id: buyer.basketId, node_id: sale.article.node.id },
    });
    expect(added.status).toBe(201);
    expect(added.body.title).toBe("Pass journée");
    const evening = await ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      headers: FRENCH,
      body: { basket_id: buyer.basketId, node_id: sale.evening.node },
    });
    expect(evening.body.title).toBe("Evening pass");
    const line = await ctx.database.db
      .select()
      .from(schema.selectedNodes)
      .where(eq(schema.selectedNodes.id, added.body.id))
      .get();
    expect(line).toMatchObject({ title: "Day pass", titleFr: "Pass journée" });

    const titles = async (headers: Record<string, string>) =>
      (await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token, headers })).body.items.map(
        (item: { title: string }) => item.title,
      );
    expect(await titles(FRENCH)).toEqual(["Pass journée", "Evening pass"]);
    expect(await titles(ENGLISH)).toEqual(["Day pass", "Evening pass"]);
    const listed = await ctx.call("GET", `/frontend/baskets?event_id=${sale.event.id}`, {
      token: buyer.token,
      headers: FRENCH,
    });
    expect(listed.body[0].items[0].title).toBe("Pass journée");

    const forms = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}/forms`, {
      token: buyer.token,
      headers: FRENCH,
    });
    expect(forms.body).toHaveLength(1);
    expect(forms.body[0]).toMatchObject({ title: "Pass journée", groups: [{ name: "Participant" }] });
    expect(forms.body[0].groups[0].extra_infos[0]).toMatchObject({
      text: "Votre repas",
      choices: ["Vegetarian", "Meat"],
      choice_labels: ["Végétarien", "Viande"],
    });
    const answer = (value: string) =>
      ctx.call("PUT", `/frontend/selected-nodes/${added.body.id}/extra-infos`, {
        token: buyer.token,
        headers: FRENCH,
        body: { answers: [{ extra_info_id: sale.meal, value }] },
      });
    const stored = async () =>
      ctx.database.db
        .select()
        .from(schema.selectedNodeExtraInfos)
        .innerJoin(
          schema.selectedNodeExtraInfoGroups,
          eq(schema.selectedNodeExtraInfoGroups.id, schema.selectedNodeExtraInfos.selectedGroupId),
        )
        .where(eq(schema.selectedNodeExtraInfoGroups.selectedNodeId, added.body.id))
        .get();
    // The storefront shows "Végétarien" and posts its value, the English choice.
    const picked = await answer("Vegetarian");
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body.groups[0].extra_infos[0]).toMatchObject({ text: "Votre repas", value: "Vegetarian" });
    expect(await stored()).toMatchObject({
      selected_node_extra_infos: { value: "Vegetarian", name: "Meal", nameFr: "Repas" },
      selected_node_extra_info_groups: { name: "Attendee", nameFr: "Participant" },
    });
    // A client that posted the French label it showed gets the choice it names, kept in English.
    expect((await answer("Viande")).status).toBe(200);
    expect((await stored())?.selected_node_extra_infos.value).toBe("Meat");
    expect((await answer("Poisson")).status).toBe(400);
  });
  it("lists a buyer's waiting-list entries with their article's title in the caller's language", async () => {
    const sale = await soldOutSale(ctx, 1);
    await ctx.database.transaction(function* (tx) {
      yield* run(
        tx
          .update(schema.nodeConfigurations)
          .set({ titleFr: "Entrée" })
          .where(eq(schema.nodeConfigurations.id, sale.article.configuration.id))
          .run(),
      );
    });
    const buyer = await provedBuyer(ctx, sale);
    const joined = await join(ctx, sale, buyer, 1, FRENCH);
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(joined.body.title).toBe("Entrée");
    const again = await join(ctx, sale, buyer, 1, FRENCH);
    expect(again.body.errors?.[0]).toContain("Entrée");
    const list = (headers: Record<string, string>) =>
      ctx.call("GET", `/frontend/waiting-list?event_id=${sale.event.id}`, { token: buyer.token, headers });
    expect((await list(FRENCH)).body.map((entry: { title: string }) => entry.title)).toEqual(["Entrée"]);
    expect((await list(ENGLISH)).body.map((entry: { title: string }) => entry.title)).toEqual(["Entry"]);
    // The entry keeps the English title, as a basket line does.
    expect((await ctx.database.db.select().from(schema.waitingListEntries).all()).at(-1)?.title).toBe("Entry");
    // Offered the freed unit, the buyer reads the offer's page in their language too.
    await freeOne(ctx, sale);
    const [mail] = await mailsAbout(ctx, "waiting_list_offer", joined.body.id);
    const rendered = await renderMail({ database: ctx.database, config: ctx.config }, mail as NonNullable<typeof mail>);
    const code = new URL(/http\S+\/waiting-list\/offers\/\S+/.exec(rendered.text)?.[0] ?? "").searchParams.get("code");
    const offer = (headers: Record<string, string>) =>
      ctx.call("GET", `/frontend/waiting-list/offers/${joined.body.id}?code=${code}`, { headers });
    expect((await offer(FRENCH)).body).toMatchObject({ title: "Entrée", state: "offered" });
    expect((await offer(ENGLISH)).body.title).toBe("Entry");
  });
});

describe.each(DRIVERS)("the French of organiser texts in the back office (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("creates, lists and changes elements and form fields with their French", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 3, status: "draft" });
    const staff = await loginAs(ctx, sale.email, sale.password);
    const create = eventResourceCreator(ctx, staff, sale.event.id);
    const configuration = await create("node-configurations", {
      category: "article",
      title: "Day pass",
      title_fr: "Pass journée",
      description_fr: "Entrée",
    });
    const read = await ctx.call("GET", `/node-configurations/${configuration}`, { token: staff });
    expect(read.body).toMatchObject({ title: "Day pass", title_fr: "Pass journée", description_fr: "Entrée" });
    const list = await ctx.call(
      "GET",
      `/node-configurations?filter=${encodeURIComponent(JSON.stringify({ event_id: sale.event.id }))}`,
      {
        token: staff,
      },
    );
    expect(list.body.find((row: { id: number }) => row.id === configuration)?.title_fr).toBe("Pass journée");
    const group = await create("node-extra-info-groups", { name: "Attendee", name_fr: "Participant" });
    const field = await create("node-extra-infos", {
      group_id: group,
      name: "Meal",
      type: "choice",
      choices_json: ["Vegetarian", "Meat"],
      choices_fr_json: ["Végétarien", ""],
    });
    expect((await ctx.call("GET", `/node-extra-infos/${field}`, { token: staff })).body.choices_fr_json).toEqual([
      "Végétarien",
      "",
    ]);
    const changed = await ctx.call("PUT", `/node-extra-infos/${field}`, {
      token: staff,
      body: { choices_fr_json: ["Végétarien", "Viande"], text_fr: "Votre repas" },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ choices_fr_json: ["Végétarien", "Viande"], text_fr: "Votre repas" });
    const untouched = await ctx.call("PUT", `/node-configurations/${configuration}`, {
      token: staff,
      body: { title: "Full-day pass" },
    });
    expect(untouched.body).toMatchObject({ title: "Full-day pass", title_fr: "Pass journée" });
  });

  it("creates and changes an event with its French public texts", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 1, status: "draft" });
    const staff = await loginAs(ctx, sale.email, sale.password);
    const created = await ctx.call("POST", "/events", {
      token: staff,
      body: {
        unit_id: sale.organiser.personalUnitId,
        name: "Fair",
        frontend_title: "Summer fair",
        frontend_title_fr: "Fête d'été",
        welcome_text_fr: "Bienvenue",
        frontend_path: `fair-${Date.now()}`,
        start_date: "2030-05-01T18:00:00Z",
        end_date: "2030-05-01T23:00:00Z",
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ frontend_title_fr: "Fête d'été", welcome_text_fr: "Bienvenue" });
    const changed = await ctx.call("PUT", `/events/${created.body.id}`, {
      token: staff,
      body: { location_text_fr: "Place du Marché", welcome_text_fr: "Soyez les bienvenus" },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const read = await ctx.call("GET", `/events/${created.body.id}`, { token: staff });
    expect(read.body).toMatchObject({
      frontend_title_fr: "Fête d'été",
      welcome_text_fr: "Soyez les bienvenus",
      location_text_fr: "Place du Marché",
    });
  });
});

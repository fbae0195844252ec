// The ticket office reads an organiser's texts in the buyer's language (issue 34, docs/decisions/0043): the visitor
// tree, cached per catalogue version and language, the event's public texts and points of sale; and the back office
// writes and reads the French beside each English.
import { describe, expect, it } from "vitest";
import {
  createOnSaleEvent,
  DRIVERS,
  eventResourceCreator,
  FRENCH,
  loginAs,
  type TestContext,
  useTestContext,
} from "../../test-support.ts";
import { bilingualEvent, ENGLISH } from "./content-language.fixtures.ts";

type Node = { title: string; description: string; tags: string[]; children: Node[]; extra_info_groups: Group[] };
type Group = { name: string; help_text: string; extra_infos: Field[] };
type Field = { id: number; name: string; text: string; help_text: string; choices: string[]; choice_labels: string[] };

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

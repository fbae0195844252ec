// What the tests of organiser texts in two languages share (issue 34, docs/decisions/0043): an event written in
// English and French, with an element left in English only, and the headers of an English and a French browser.
import { expect } from "vitest";
import {
  addCatalogueElement,
  createOnSaleEvent,
  eventResourceCreator,
  loginAs,
  type TestContext,
  writeEventRow,
} from "../../test-support.ts";

/** The headers of an English-speaking browser (FRENCH, test-support.ts, is the French one's). */
export const ENGLISH = { "accept-language": "en-GB,en;q=0.9" };

/**
 * A public event whose day pass is written in both languages, its evening pass in English only, with a form and a
 * point of sale whose description is in English only.
 */
export async function bilingualEvent(ctx: TestContext) {
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

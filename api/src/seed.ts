// The demo data (docs/design.md §8): a unit, an organiser, a moderator and the public event `demo`, created through
// the same services the API uses. Run by the first `npm start` and by `npm run db:seed`.
import { count, type Database, eq, run, schema } from "@ticketing/db";
import { createUser } from "./services/accounts/sessions.ts";
import { addArticle, loadCatalogue } from "./services/catalogue/catalogue.ts";
import { createEvent } from "./services/events/events.ts";
import { findEventByPath } from "./services/events/public-infos.ts";

export const DEMO_ORGANISER = { email: "organiser@example.org", password: "demo-organiser-2026!" };
export const DEMO_MODERATOR = { email: "moderator@example.org", password: "demo-moderator-2026!" };
export const DEMO_PROMOTION_CODE = "EARLYBIRD";

export async function isSeeded(database: Database) {
  const row = await database.db.select({ n: count() }).from(schema.users).get();
  return (row?.n ?? 0) > 0;
}

export async function seedDemo(database: Database) {
  const organiser = await createUser(database, { ...DEMO_ORGANISER, firstName: "Demo", lastName: "Organiser" });
  await createUser(database, { ...DEMO_MODERATOR, firstName: "Demo", lastName: "Moderator", isSuperuser: true });
  if (!organiser.personalUnitId) throw new Error("The organiser has no personal unit");
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(schema.units)
        // The issuer its invoices name.
        .set({ name: "Demo Festival Association", address: "Quai d'Ouchy 1\n1006 Lausanne\nSwitzerland" })
        .where(eq(schema.units.id, organiser.personalUnitId as number))
        .run(),
    );
  });
  if (await findEventByPath(database.db, "demo")) return;
  const event = await createEvent(database, {
    unitId: organiser.personalUnitId,
    name: "Lakeside Jazz 2027 (demo)",
    frontendTitle: "Lakeside Jazz Festival 2027",
    frontendPath: "demo",
    startDate: "2027-06-12T16:00:00.000Z",
    endDate: "2027-06-13T21:00:00.000Z",
    welcomeText: "Two days of jazz by the lake. Choose a day pass or the weekend pass, and add what you like.",
    locationText: "Quai d'Ouchy, Lausanne",
    // In both languages (docs/decisions/0043), so that a newcomer sees a French buyer's ticket office at once.
    frontendTitleFr: "Festival de jazz du lac 2027",
    welcomeTextFr:
      "Deux jours de jazz au bord du lac. Choisissez un pass journée ou le pass week-end, et ajoutez ce qui vous plaît.",
  });
  const dayPass = await addArticle(database, event.id, {
    title: "Day pass",
    description: "Entry on Saturday or Sunday.",
    price: 4500,
    stock: 300,
  });
  const weekendPass = await addArticle(database, event.id, {
    title: "Weekend pass",
    description: "Entry on both days.",
    price: 8000,
    stock: 200,
  });
  await database.transaction(function* (tx) {
    for (const [article, titleFr, descriptionFr] of [
      [dayPass, "Pass journée", "Entrée le samedi ou le dimanche."],
      [weekendPass, "Pass week-end", "Entrée les deux jours."],
    ] as const)
      yield* run(
        tx
          .update(schema.nodeConfigurations)
          .set({ titleFr, descriptionFr })
          .where(eq(schema.nodeConfigurations.id, article.configuration.id))
          .run(),
      );
    // One shared quota over both passes: the site holds 400 people whatever they bought.
    const capacity = yield* run(
      tx
        .insert(schema.nodeLimits)
        .values({ eventId: event.id, label: "Site capacity", labelFr: "Capacité du site", maximum: 400 })
        .returning()
        .get(),
    );
    for (const article of [dayPass, weekendPass])
      yield* run(
        tx
          .insert(schema.nodeConfigurationLimits)
          .values({ nodeConfigurationId: article.configuration.id, targetId: capacity.id })
          .run(),
      );
    const options = [
      { parent: dayPass, title: "Lunch voucher", titleFr: "Bon pour un repas", price: 1500, stock: null },
      { parent: dayPass, title: "Festival T-shirt", titleFr: "T-shirt du festival", price: 2500, stock: 100 },
      { parent: weekendPass, title: "Festival T-shirt", titleFr: "T-shirt du festival", price: 2500, stock: null },
      { parent: weekendPass, title: "VIP lounge access", titleFr: "Accès au salon VIP", price: 5000, stock: 20 },
    ];
    let order = 0;
    for (const option of options) {
      const configuration = yield* run(
        tx
          .insert(schema.nodeConfigurations)
          .values({ eventId: event.id, category: "option", title: option.title, titleFr: option.titleFr })
          .returning()
          .get(),
      );
      const cart = yield* run(tx.insert(schema.nodeCartConfigurations).values({ eventId: event.id }).returning().get());
      yield* run(
        tx
          .insert(schema.nodes)
          .values({
            eventId: event.id,
            parentId: option.parent.node.id,
            order: order++,
            configurationId: configuration.id,
            cartConfigurationId: cart.id,
          })
          .run(),
      );
      const rule = yield* run(
        tx
          .insert(schema.nodePriceRules)
          .values({ eventId: event.id, label: option.title, labelFr: option.titleFr, mode: "set", value: option.price })
          .returning()
          .get(),
      );
      yield* run(
        tx
          .insert(schema.nodeConfigurationPriceRules)
          .values({ nodeConfigurationId: configuration.id, targetId: rule.id })
          .run(),
      );
      if (option.stock !== null) {
        const limit = yield* run(
          tx
            .insert(schema.nodeLimits)
            .values({ eventId: event.id, label: option.title, labelFr: option.titleFr, maximum: option.stock })
            .returning()
            .get(),
        );
        yield* run(
          tx
            .insert(schema.nodeConfigurationLimits)
            .values({ nodeConfigurationId: configuration.id, targetId: limit.id })
            .run(),
        );
      }
    }
    // 10 % off both passes with the promotion code.
    const condition = yield* run(
      tx.insert(schema.conditions).values({ eventId: event.id, name: "Early bird code" }).returning().get(),
    );
    yield* run(
      tx
        .insert(schema.statements)
        .values({
          eventId: event.id,
          conditionId: condition.id,
          leftHandOperand: "promotion_code",
          operator: "=",
          rightHandValue: DEMO_PROMOTION_CODE,
        })
        .run(),
    );
    const discount = yield* run(
      tx
        .insert(schema.nodePriceRules)
        .values({
          eventId: event.id,
          label: "Early bird −10 %",
          labelFr: "Lève-tôt −10 %",
          mode: "minus_percent",
          value: 1000,
          order: 10,
          conditionId: condition.id,
        })
        .returning()
        .get(),
    );
    for (const article of [dayPass, weekendPass])
      yield* run(
        tx
          .insert(schema.nodeConfigurationPriceRules)
          .values({ nodeConfigurationId: article.configuration.id, targetId: discount.id })
          .run(),
      );
    yield* run(
      tx
        .insert(schema.promotionCodes)
        .values({ eventId: event.id, name: "Early bird", value: DEMO_PROMOTION_CODE })
        .run(),
    );
    yield* run(
      tx
        .update(schema.events)
        .set({ status: "public", moderationStatus: "validated" })
        .where(eq(schema.events.id, event.id))
        .run(),
    );
  });
  await loadCatalogue(database.db, event.id);
  return event;
}

// What a basket keeps of an organiser's texts in two languages (issue 34, docs/decisions/0043): an article added keeps
// its French title, a form's answers their group's and field's French names, and the caller reads them in their
// language; a choice is stored as its English, whatever label the buyer read. The waiting list's entries likewise.
import { eq, run, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import { createBuyer, DRIVERS, FRENCH, useTestContext } from "../../test-support.ts";
import { bilingualEvent, ENGLISH } from "../catalogue/content-language.fixtures.ts";
import { renderMail } from "../mail/templates/registry.ts";
import { freeOne, join, mailsAbout, provedBuyer, soldOutSale } from "../waiting-list/entries.fixtures.ts";

describe.each(DRIVERS)("a basket in the buyer's language (%s)", (driver) => {
  const ctx = useTestContext(driver);

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

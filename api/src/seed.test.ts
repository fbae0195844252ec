// The demo event a newcomer meets on first start is in English and French (issue 34, docs/decisions/0043).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { seedDemo } from "./seed.ts";
import { createTestContext, FRENCH, type TestContext } from "./test-support.ts";

interface TreeNode {
  title: string;
  description: string;
  children: TreeNode[];
}
const titles = (node: TreeNode): string[] => [node.title, ...node.children.flatMap(titles)];

describe("the demo event", () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext();
    await seedDemo(ctx.database);
  });
  afterEach(() => ctx.close());

  async function seen(headers: Record<string, string>) {
    const { body: infos } = await ctx.call("GET", "/events/public-infos?path=demo", { headers });
    const { body: tree } = await ctx.call("GET", `/frontend/events/${infos.id}/tree`, { headers });
    return { infos, titles: titles(tree.root ?? tree) };
  }

  it("reads in French to a French buyer, and in English to an English one", async () => {
    const french = await seen(FRENCH);
    expect(french.infos.frontend_title).toBe("Festival de jazz du lac 2027");
    expect(french.infos.welcome_text).toMatch(/^Deux jours de jazz au bord du lac/);
    expect(french.titles).toEqual(expect.arrayContaining(["Pass journée", "Pass week-end", "Bon pour un repas"]));

    const english = await seen({ "accept-language": "en" });
    expect(english.infos.frontend_title).toBe("Lakeside Jazz Festival 2027");
    expect(english.titles).toEqual(expect.arrayContaining(["Day pass", "Weekend pass", "Lunch voucher"]));
    expect(english.titles).not.toContain("Pass journée");
  });

  it("gives a French buyer the English where no French was written: the place's name", async () => {
    expect((await seen(FRENCH)).infos.location_text).toBe("Quai d'Ouchy, Lausanne");
  });
});

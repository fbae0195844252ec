// Messages in the caller's language (docs/design.md §3, docs/decisions/0009): the same refusal reads in French for a
// French `Accept-Language` and in English otherwise — a bad body, an unknown id or path, a sold-out article, a
// refused sign-in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBuyer, createOnSaleEvent, createTestContext, loginAs, type TestContext } from "./test-support.ts";

const FRENCH = { "accept-language": "fr-CH,fr;q=0.9,en;q=0.8" };
const ENGLISH = { "accept-language": "en-GB,en;q=0.9" };

describe("messages in the caller's language", () => {
  let ctx: TestContext;
  let sale: Awaited<ReturnType<typeof createOnSaleEvent>>;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    sale = await createOnSaleEvent(ctx, { stock: 1 });
    token = await loginAs(ctx, sale.email, sale.password);
  });
  afterAll(async () => ctx.close());

  it("says what is wrong with a body: an unknown field, a missing one", async () => {
    const body = { email: sale.email, nickname: "Ada" };
    const french = await ctx.call("POST", "/auth/login", { body, headers: FRENCH });
    expect(french).toMatchObject({
      status: 400,
      body: {
        errors: ["password : Obligatoire", "Champ inconnu : nickname"],
        field_errors: { password: "Obligatoire" },
      },
    });
    const english = await ctx.call("POST", "/auth/login", { body, headers: ENGLISH });
    expect(english).toMatchObject({
      status: 400,
      body: { errors: ["password: Required", "Unknown field: nickname"], field_errors: { password: "Required" } },
    });
    // Without a language the API speaks English.
    expect((await ctx.call("POST", "/auth/login", { body })).body.errors).toEqual(english.body.errors);
  });

  it("refuses a body that is not JSON, and a route's own unknown field", async () => {
    const notJson = { body: "{not json", headers: { ...FRENCH, "content-type": "application/json" } };
    expect(await ctx.call("POST", "/auth/login", notJson)).toMatchObject({
      status: 400,
      body: { errors: ["Le corps de la requête n'est pas du JSON valide"] },
    });
    const extra = { token, body: { amount: 100 } };
    expect(await ctx.call("POST", "/invoices/1/mark-paid", { ...extra, headers: FRENCH })).toMatchObject({
      status: 400,
      body: { errors: ["Champ inconnu : amount"] },
    });
    expect(await ctx.call("POST", "/invoices/1/mark-paid", { ...extra, headers: ENGLISH })).toMatchObject({
      status: 400,
      body: { errors: ["Unknown field: amount"] },
    });
  });

  it("says an unknown id and an unknown path are not found", async () => {
    for (const path of ["/baskets/999999", "/no-such-thing"]) {
      expect(await ctx.call("GET", path, { token, headers: FRENCH })).toEqual(
        expect.objectContaining({ status: 404, body: { errors: ["Ressource introuvable"] } }),
      );
      expect(await ctx.call("GET", path, { token, headers: ENGLISH })).toEqual(
        expect.objectContaining({ status: 404, body: { errors: ["Resource not found"] } }),
      );
    }
  });

  it("says an article is sold out", async () => {
    const first = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const nodeId = sale.article.node.id;
    const add = (buyer: { token: string; basketId: number }, headers: Record<string, string>) =>
      ctx.call("POST", "/frontend/selected-nodes", {
        token: buyer.token,
        body: { basket_id: buyer.basketId, node_id: nodeId },
        headers,
      });
    expect((await add(first, ENGLISH)).status).toBe(201);
    const second = await createBuyer(ctx, sale.event.id, sale.moduleId);
    expect(await add(second, FRENCH)).toMatchObject({ status: 409, body: { errors: ["Épuisé : Entry"] } });
    expect(await add(second, ENGLISH)).toMatchObject({ status: 409, body: { errors: ["Sold out: Entry"] } });
  });

  it("refuses a wrong password", async () => {
    const body = { email: sale.email, password: "not-the-password-1!" };
    expect(await ctx.call("POST", "/auth/login", { body, headers: FRENCH })).toMatchObject({
      status: 400,
      body: { errors: ["Nom d'utilisateur ou mot de passe incorrect, veuillez réessayer"] },
    });
    expect(await ctx.call("POST", "/auth/login", { body, headers: ENGLISH })).toMatchObject({
      status: 400,
      body: { errors: ["Wrong username or password, please try again"] },
    });
  });
});

// A unit's Stripe account (docs/design.md §4 "Payments"): its owner sets the secret key and the webhook signing secret,
// stored encrypted and never answered; an event chooses Stripe only once its unit's account is set.
import { eq, run, schema } from "@ticketing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptSecret } from "../../lib/secrets.ts";
import {
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  FRENCH,
  submitBilling,
  type TestContext,
} from "../../test-support.ts";
import { createUser } from "./sessions.ts";

const PASSWORD = "correct-horse-battery-1!";
// Made up, in Stripe's formats: what an owner copies from Stripe's dashboard.
const SECRET_KEY = "sk_test_51Hx9mQ2eZvKYlo2C0a1b2c3d4e5f6g7h8i9j0kLmNoPqRsTuVwXyZ";
const WEBHOOK_SECRET = "whsec_Zq8Yk3Lm5Np7Rt9Vx1Bz3Dc5Fg7Hj9Kl";
const STRIPE = { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET };

describe("a unit's Stripe account", () => {
  let ctx: TestContext;
  let sale: Awaited<ReturnType<typeof createOnSaleEvent>>;
  let unitId: number;
  const tokens = { owner: "", member: "", outsider: "", superuser: "" };

  beforeAll(async () => {
    ctx = await createTestContext();
    sale = await createOnSaleEvent(ctx, { stock: 5, status: "draft" });
    unitId = sale.organiser.personalUnitId as number;
    const member = await createUser(ctx.database, { email: "member@example.org", password: PASSWORD });
    await createUser(ctx.database, { email: "outsider@example.org", password: PASSWORD });
    await createUser(ctx.database, { email: "root@example.org", password: PASSWORD, isSuperuser: true });
    await ctx.database.transaction(function* (tx) {
      yield* run(tx.insert(schema.memberships).values({ unitId, userId: member.id, role: "member" }).run());
    });
    tokens.owner = await ctx
      .call("POST", "/auth/login", { body: { email: sale.email, password: sale.password } })
      .then((r) => r.body.access_token);
    tokens.member = (
      await ctx.call("POST", "/auth/login", { body: { email: "member@example.org", password: PASSWORD } })
    ).body.access_token;
    tokens.outsider = (
      await ctx.call("POST", "/auth/login", { body: { email: "outsider@example.org", password: PASSWORD } })
    ).body.access_token;
    tokens.superuser = (
      await ctx.call("POST", "/auth/login", { body: { email: "root@example.org", password: PASSWORD } })
    ).body.access_token;
  });
  afterAll(async () => ctx.close());

  const stored = async () =>
    ctx.database.db
      .select({
        key: schema.units.stripeSecretKeyEncrypted,
        webhook: schema.units.stripeWebhookSecretEncrypted,
      })
      .from(schema.units)
      .where(eq(schema.units.id, unitId))
      .get();
  const removeStripe = async () => {
    expect((await ctx.call("DELETE", `/units/${unitId}/stripe`, { token: tokens.owner })).status).toBe(200);
  };

  it("answers whether the account is set and the webhook address to give Stripe", async () => {
    const unit = await ctx.call("GET", `/units/${unitId}`, { token: tokens.member });
    expect(unit.body).toMatchObject({
      is_stripe_configured: false,
      stripe_webhook_url: `http://localhost:3000/api/v1/payments/stripe/webhook/${unitId}`,
    });
    expect(Object.keys(unit.body).filter((key) => key.includes("encrypted"))).toEqual([]);
  });

  it("lets the owner set it, stored encrypted with the product's secret", async () => {
    const set = await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body: STRIPE });
    expect(set).toMatchObject({ status: 200, body: { id: unitId, is_stripe_configured: true } });
    const row = await stored();
    expect(row?.key).not.toContain(SECRET_KEY);
    expect(row?.webhook).not.toContain(WEBHOOK_SECRET);
    expect(decryptSecret(ctx.config.secretKey, row?.key ?? "")).toBe(SECRET_KEY);
    expect(decryptSecret(ctx.config.secretKey, row?.webhook ?? "")).toBe(WEBHOOK_SECRET);
    // Another product's secret cannot open them.
    expect(decryptSecret("another-product-secret-of-32-characters!", row?.key ?? "")).toBeNull();
    // Pasted with spaces around: the same secrets.
    const padded = { secret_key: ` ${SECRET_KEY}\n`, webhook_secret: `\t${WEBHOOK_SECRET} ` };
    expect((await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body: padded })).status).toBe(200);
    expect(decryptSecret(ctx.config.secretKey, (await stored())?.key ?? "")).toBe(SECRET_KEY);
  });

  it("never answers the secrets, in any unit or event answer", async () => {
    await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body: STRIPE });
    const row = await stored();
    const secrets = [SECRET_KEY, WEBHOOK_SECRET, row?.key, row?.webhook, "encrypted"] as string[];
    const event = `/events/${sale.event.id}`;
    const answers = [
      await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body: STRIPE }),
      await ctx.call("GET", "/units", { token: tokens.owner }),
      await ctx.call("GET", "/units", { token: tokens.superuser }),
      await ctx.call("GET", `/units/${unitId}`, { token: tokens.owner }),
      await ctx.call("GET", `/units/${unitId}`, { token: tokens.member }),
      await ctx.call("PUT", `/units/${unitId}`, { token: tokens.owner, body: { description: "Jazz" } }),
      await ctx.call("GET", "/events", { token: tokens.owner }),
      await ctx.call("GET", event, { token: tokens.owner }),
      await ctx.call("PUT", event, { token: tokens.owner, body: { online_payment_module: "stripe" } }),
      await ctx.call("POST", "/events", {
        token: tokens.owner,
        body: {
          unit_id: unitId,
          name: "Second",
          frontend_title: "Second",
          frontend_path: "second-stripe",
          start_date: "2030-01-01T10:00:00Z",
          end_date: "2030-01-01T12:00:00Z",
          online_payment_module: "stripe",
        },
      }),
      await ctx.call("GET", `/memberships?filter=${encodeURIComponent(JSON.stringify({ unit_id: unitId }))}`, {
        token: tokens.owner,
      }),
      await ctx.call("GET", "/auth/me", { token: tokens.owner }),
    ];
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      const text = JSON.stringify(answer.body);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    expect(answers[0]?.body.is_stripe_configured).toBe(true);
    expect(answers[7]?.body.is_stripe_configured).toBe(true);
  });

  it("refuses what is not a Stripe secret key or signing secret, in the caller's language", async () => {
    const bad = async (body: unknown, headers?: Record<string, string>) =>
      ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body, headers });
    const publishable = await bad({ secret_key: "pk_test_51Hx9mQ2eZvKYlo2C0a1b2c3d", webhook_secret: WEBHOOK_SECRET });
    expect(publishable).toMatchObject({
      status: 400,
      body: {
        field_errors: {
          secret_key:
            "Enter the secret key from Stripe's dashboard (Developers, API keys): it starts with sk_live_, sk_test_, rk_live_ or rk_test_",
        },
      },
    });
    const french = await bad({ secret_key: SECRET_KEY, webhook_secret: "Zq8Yk3Lm5Np7Rt9Vx1Bz3Dc5Fg7Hj9Kl" }, FRENCH);
    expect(french).toMatchObject({
      status: 400,
      body: {
        field_errors: {
          webhook_secret:
            "Saisissez le secret de signature du point de terminaison webhook du tableau de bord Stripe : il commence par whsec_",
        },
      },
    });
    for (const body of [
      {},
      { secret_key: SECRET_KEY },
      { secret_key: "", webhook_secret: "" },
      { secret_key: "sk_test_short", webhook_secret: WEBHOOK_SECRET },
      { secret_key: "sk_prod_51Hx9mQ2eZvKYlo2C0a1b2c3d", webhook_secret: WEBHOOK_SECRET },
      { secret_key: `${SECRET_KEY} and more`, webhook_secret: WEBHOOK_SECRET },
      { secret_key: `sk_live_${"a".repeat(300)}`, webhook_secret: WEBHOOK_SECRET },
      { secret_key: SECRET_KEY, webhook_secret: `whsec_${"a".repeat(300)}` },
      { secret_key: 42, webhook_secret: WEBHOOK_SECRET },
      { ...STRIPE, publishable_key: "pk_test_x" },
    ]) {
      const refused = await bad(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.errors.length).toBeGreaterThan(0);
    }
    // Restricted keys and live keys are Stripe's too.
    for (const key of ["rk_live_51Hx9mQ2eZvKYlo2C0a1b2c3d", "sk_live_51Hx9mQ2eZvKYlo2C0a1b2c3d"])
      expect((await bad({ secret_key: key, webhook_secret: WEBHOOK_SECRET })).status).toBe(200);
    expect(decryptSecret(ctx.config.secretKey, (await stored())?.key ?? "")).toBe("sk_live_51Hx9mQ2eZvKYlo2C0a1b2c3d");
  });

  it("is the owners' and superusers' to set and remove: a member is refused, an outsider does not see the unit", async () => {
    await removeStripe();
    for (const [method, body] of [
      ["PUT", STRIPE],
      ["DELETE", undefined],
    ] as const) {
      expect(await ctx.call(method, `/units/${unitId}/stripe`, { body })).toMatchObject({ status: 401 });
      expect(await ctx.call(method, `/units/${unitId}/stripe`, { token: tokens.outsider, body })).toMatchObject({
        status: 404,
      });
      expect(await ctx.call(method, `/units/${unitId}/stripe`, { token: tokens.member, body })).toMatchObject({
        status: 403,
        body: { errors: ["Only the unit's owners can do this"] },
      });
      expect(await ctx.call(method, "/units/999999/stripe", { token: tokens.superuser, body })).toMatchObject({
        status: 404,
      });
    }
    // Refused callers changed nothing.
    expect(await stored()).toEqual({ key: null, webhook: null });
    const bySuperuser = await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.superuser, body: STRIPE });
    expect(bySuperuser).toMatchObject({ status: 200, body: { is_stripe_configured: true, current_user_role: null } });
    const member = await ctx.call("DELETE", `/units/${unitId}/stripe`, { token: tokens.member });
    expect(member.status).toBe(403);
    expect((await stored())?.key).toBeTruthy();
    const removed = await ctx.call("DELETE", `/units/${unitId}/stripe`, { token: tokens.superuser });
    expect(removed).toMatchObject({ status: 200, body: { is_stripe_configured: false } });
    expect(await stored()).toEqual({ key: null, webhook: null });
  });

  it("keeps the secrets when the unit's form is saved back whole", async () => {
    await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body: STRIPE });
    const unit = (await ctx.call("GET", `/units/${unitId}`, { token: tokens.owner })).body;
    const saved = await ctx.call("PUT", `/units/${unitId}`, {
      token: tokens.owner,
      body: { ...unit, name: "Renamed" },
    });
    expect(saved).toMatchObject({ status: 200, body: { name: "Renamed", is_stripe_configured: true } });
    expect(decryptSecret(ctx.config.secretKey, (await stored())?.key ?? "")).toBe(SECRET_KEY);
    // The read-only answer fields do not set anything.
    const forged = await ctx.call("PUT", `/units/${unitId}`, {
      token: tokens.owner,
      body: { is_stripe_configured: false, stripe_webhook_url: "https://evil.example.org" },
    });
    expect(forged.body).toMatchObject({
      is_stripe_configured: true,
      stripe_webhook_url: `http://localhost:3000/api/v1/payments/stripe/webhook/${unitId}`,
    });
  });

  describe("the event's online payment module", () => {
    const event = () => `/events/${sale.event.id}`;
    const choose = (module: string, headers?: Record<string, string>) =>
      ctx.call("PUT", event(), { token: tokens.owner, body: { online_payment_module: module }, headers });

    it("is the demo page unless chosen, and says whether the unit's Stripe account is set", async () => {
      await removeStripe();
      const fresh = await createOnSaleEvent(ctx, { stock: 1, status: "draft" });
      const token = (await ctx.call("POST", "/auth/login", { body: { email: fresh.email, password: fresh.password } }))
        .body.access_token;
      expect((await ctx.call("GET", `/events/${fresh.event.id}`, { token })).body).toMatchObject({
        online_payment_module: "demo",
        is_stripe_configured: false,
      });
      expect((await ctx.call("GET", event(), { token: tokens.member })).body.is_stripe_configured).toBe(false);
      await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body: STRIPE });
      expect((await ctx.call("GET", event(), { token: tokens.member })).body.is_stripe_configured).toBe(true);
      const listed = await ctx.call("GET", "/events", { token: tokens.owner });
      expect(listed.body.find((row: { id: number }) => row.id === sale.event.id).is_stripe_configured).toBe(true);
    });

    it("refuses Stripe while the unit's account is not set, with a message on the field", async () => {
      await choose("demo");
      await removeStripe();
      expect(await choose("stripe")).toMatchObject({
        status: 400,
        body: {
          errors: ["The unit's Stripe account is not set: an owner of the unit enters it in the unit's settings first"],
          field_errors: {
            online_payment_module:
              "The unit's Stripe account is not set: an owner of the unit enters it in the unit's settings first",
          },
        },
      });
      expect((await choose("stripe", FRENCH)).body.field_errors.online_payment_module).toBe(
        "Le compte Stripe de l'unité n'est pas configuré : un propriétaire de l'unité doit d'abord le saisir dans les paramètres de l'unité",
      );
      expect((await choose("paypal")).body.field_errors).toHaveProperty("online_payment_module");
      expect((await ctx.call("GET", event(), { token: tokens.owner })).body.online_payment_module).toBe("demo");
      const created = await ctx.call("POST", "/events", {
        token: tokens.owner,
        body: {
          unit_id: unitId,
          name: "Third",
          frontend_title: "Third",
          frontend_path: "third-stripe",
          start_date: "2030-01-01T10:00:00Z",
          end_date: "2030-01-01T12:00:00Z",
          online_payment_module: "stripe",
        },
      });
      expect(created).toMatchObject({
        status: 400,
        body: { field_errors: { online_payment_module: expect.any(String) } },
      });
    });

    it("takes Stripe once the account is set, a member of the unit may choose it, and back to the demo page", async () => {
      await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body: STRIPE });
      const chosen = await ctx.call("PUT", event(), {
        token: tokens.member,
        body: { online_payment_module: "stripe" },
      });
      expect(chosen).toMatchObject({
        status: 200,
        body: { online_payment_module: "stripe", is_stripe_configured: true },
      });
      expect(
        (await ctx.call("PUT", event(), { token: tokens.outsider, body: { online_payment_module: "demo" } })).status,
      ).toBe(404);
      expect(await choose("demo")).toMatchObject({ status: 200, body: { online_payment_module: "demo" } });
    });

    it("still saves an event on Stripe whose unit's account was removed (the form sent back whole)", async () => {
      await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body: STRIPE });
      await choose("stripe");
      await removeStripe();
      const whole = (await ctx.call("GET", event(), { token: tokens.owner })).body;
      expect(whole).toMatchObject({ online_payment_module: "stripe", is_stripe_configured: false });
      const saved = await ctx.call("PUT", event(), { token: tokens.owner, body: { ...whole, name: "Renamed" } });
      expect(saved).toMatchObject({ status: 200, body: { name: "Renamed", online_payment_module: "stripe" } });
    });

    it("a public event on Stripe without the unit's account takes no online payment (409); testing baskets pay on the demo page", async () => {
      await ctx.call("PUT", `/units/${unitId}/stripe`, { token: tokens.owner, body: STRIPE });
      await choose("stripe");
      await removeStripe();
      await ctx.database.transaction(function* (tx) {
        yield* run(tx.update(schema.events).set({ status: "public" }).where(eq(schema.events.id, sale.event.id)).run());
      });
      const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
      await ctx.call("POST", "/frontend/selected-nodes", {
        token: buyer.token,
        body: { basket_id: buyer.basketId, node_id: sale.article.node.id },
      });
      await submitBilling(ctx, buyer);
      const checkout = (headers?: Record<string, string>) =>
        ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
          token: buyer.token,
          body: { payment_method: "online", terms_accepted: true },
          headers,
        });
      expect(await checkout()).toMatchObject({
        status: 409,
        body: { errors: ["Online payment is not available for this event at the moment"] },
      });
      expect((await checkout(FRENCH)).body.errors).toEqual([
        "Le paiement en ligne n'est pas disponible pour cet événement pour le moment",
      ]);
      // Nothing was ordered: the basket is still the buyer's to pay another way.
      const basket = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token });
      expect(basket.body).toMatchObject({ status: "new", payment_intents: [] });
    });
  });
});

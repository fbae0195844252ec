// The Stripe stand-in answers the official client as Stripe would: its errors, its idempotency, its refunds' limit.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseStripeForm, type StripeStandIn, startStripeStandIn } from "./server.ts";

describe("the Stripe stand-in", () => {
  let standIn: StripeStandIn;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
  });
  afterAll(async () => standIn.close());

  const client = (key: string) =>
    new Stripe(key, { host: "127.0.0.1", port: standIn.port, protocol: "http", maxNetworkRetries: 0 });
  const session = (stripe: Stripe, amount = 2500) =>
    stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [
        { quantity: 1, price_data: { currency: "chf", unit_amount: amount, product_data: { name: "Entry" } } },
      ],
      success_url: "http://localhost:3000/ok",
      cancel_url: "http://localhost:3000/back",
      expires_at: Math.floor(Date.now() / 1000) + 31 * 60,
      locale: "fr",
    });

  it("reads Stripe's nested form keys", () => {
    expect(parseStripeForm("a[b][0][c]=1&a[b][1][c]=2&m[k]=v&__proto__[x]=1&e[0]=x&f[]=1&f[]=2&g=h")).toEqual({
      a: { b: [{ c: "1" }, { c: "2" }] },
      m: { k: "v" },
      e: ["x"],
      f: ["1", "2"],
      g: "h",
    });
  });

  it("refuses a malformed key with 401, a missing session with 404, and a session Stripe would not create", async () => {
    await expect(session(client("sk_live_123"))).rejects.toMatchObject({
      type: "StripeAuthenticationError",
      statusCode: 401,
    });
    const stripe = client("sk_test_standin0001");
    await expect(stripe.checkout.sessions.retrieve("cs_test_none")).rejects.toMatchObject({
      statusCode: 404,
      code: "resource_missing",
    });
    await expect(
      stripe.checkout.sessions.create({
        mode: "payment",
        line_items: [{ quantity: 1, price_data: { currency: "chf", unit_amount: 100, product_data: { name: "x" } } }],
        success_url: "http://localhost:3000/ok",
        expires_at: Math.floor(Date.now() / 1000) + 10 * 60,
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: "expires_at" });
    // Accounts are apart: another key does not see the session.
    const created = await session(stripe);
    await expect(client("sk_test_standin0002").checkout.sessions.retrieve(created.id)).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it("answers a repeated idempotency key with the first answer, and refuses it with other parameters", async () => {
    const stripe = client("sk_test_standin0003");
    const first = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        line_items: [{ quantity: 2, price_data: { currency: "chf", unit_amount: 1000, product_data: { name: "x" } } }],
        success_url: "http://localhost:3000/ok",
        expires_at: Math.floor(Date.now() / 1000) + 40 * 60,
      },
      { idempotencyKey: "same" },
    );
    expect(first).toMatchObject({ amount_total: 2000, currency: "chf", status: "open", payment_status: "unpaid" });
    const again = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        line_items: [{ quantity: 2, price_data: { currency: "chf", unit_amount: 1000, product_data: { name: "x" } } }],
        success_url: "http://localhost:3000/ok",
        expires_at: first.expires_at,
      },
      { idempotencyKey: "same" },
    );
    expect(again.id).toBe(first.id);
    await expect(session(stripe)).resolves.toMatchObject({ status: "open" });
    await expect(
      stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [{ quantity: 1, price_data: { currency: "chf", unit_amount: 1, product_data: { name: "x" } } }],
          success_url: "http://localhost:3000/ok",
        },
        { idempotencyKey: "same" },
      ),
    ).rejects.toMatchObject({ type: "StripeIdempotencyError" });
  });

  it("takes a payment on its page in the session's language, and refunds no more than was paid", async () => {
    const stripe = client("sk_test_standin0004");
    const created = await session(stripe, 2500);
    const page = await (await fetch(created.url as string)).text();
    expect(page).toContain("Payer CHF 25.00");
    expect(page).toContain('<a href="http://localhost:3000/back">Retour</a>');
    const paid = await fetch(created.url as string, { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe("http://localhost:3000/ok");
    const done = await stripe.checkout.sessions.retrieve(created.id);
    expect(done).toMatchObject({
      status: "complete",
      payment_status: "paid",
      payment_intent: expect.stringMatching(/^pi_/),
    });
    const paymentIntent = done.payment_intent as string;
    await expect(stripe.refunds.create({ payment_intent: paymentIntent, amount: 2600 })).rejects.toMatchObject({
      statusCode: 400,
      param: "amount",
    });
    await expect(stripe.refunds.create({ payment_intent: paymentIntent, amount: 1000 })).resolves.toMatchObject({
      object: "refund",
      amount: 1000,
      currency: "chf",
      status: "succeeded",
    });
    await expect(stripe.refunds.create({ payment_intent: paymentIntent })).resolves.toMatchObject({ amount: 1500 });
    await expect(stripe.refunds.create({ payment_intent: paymentIntent, amount: 1 })).rejects.toMatchObject({
      code: "charge_already_refunded",
    });
    await expect(stripe.checkout.sessions.expire(created.id)).rejects.toMatchObject({ statusCode: 400 });
  });

  it("signs its events for each webhook endpoint, with the secret it answered at the endpoint's creation", async () => {
    const stripe = client("sk_test_standin0005");
    // As the README does it by hand: curl's Basic auth and `enabled_events[]`.
    const byHand = await fetch(`${standIn.url}/v1/webhook_endpoints`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("sk_test_standin0006:").toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "url=http%3A%2F%2F127.0.0.1%3A1%2Fhook&enabled_events[]=*",
    });
    expect(await byHand.json()).toMatchObject({ enabled_events: ["*"], secret: expect.stringMatching(/^whsec_/) });
    const received: { payload: string; signature: string }[] = [];
    const { createServer } = await import("node:http");
    const hook = createServer((req, res) => {
      let payload = "";
      req.on("data", (chunk) => {
        payload += chunk;
      });
      req.on("end", () => {
        received.push({ payload, signature: String(req.headers["stripe-signature"]) });
        res.end("{}");
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    const address = hook.address() as { port: number };
    const endpoint = await stripe.webhookEndpoints.create({
      url: `http://127.0.0.1:${address.port}/hook`,
      enabled_events: ["checkout.session.expired"],
    });
    expect(endpoint).toMatchObject({
      object: "webhook_endpoint",
      status: "enabled",
      secret: expect.stringMatching(/^whsec_/),
    });
    const created = await session(stripe);
    await stripe.checkout.sessions.expire(created.id);
    await standIn.idle();
    hook.close();
    expect(received).toHaveLength(1);
    const [delivery] = received;
    const event = stripe.webhooks.constructEvent(
      delivery?.payload ?? "",
      delivery?.signature ?? "",
      endpoint.secret as string,
    );
    expect(event).toMatchObject({
      type: "checkout.session.expired",
      data: { object: { id: created.id, status: "expired" } },
    });
    const expiredPage = await (await fetch(`${standIn.url}/c/pay/${created.id}`)).text();
    expect(expiredPage).toContain("Cette session de paiement a expiré.");
  });
});

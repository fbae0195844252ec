// A local stand-in for the few Stripe API calls the `stripe` payment module makes (the machines running the tests
// cannot reach Stripe): Checkout Sessions, their hosted page, refunds and webhook endpoints, answered with Stripe's
// documented shapes and errors, one account per secret key. The product talks to it through the official `stripe`
// package (STRIPE_API_URL), so the production code path is the one tested. Test infrastructure, not product.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

type Json = Record<string, unknown>;
type Session = Json & { id: string; status: string; payment_status: string; amount_total: number; expires_at: number };
type Refund = Json & { id: string; amount: number; payment_intent: string };
type Endpoint = Json & { url: string; secret: string; enabled_events: string[] };
interface Account {
  endpoints: Endpoint[];
  refunds: Refund[];
  idempotent: Map<string, { request: string; status: number; body: Json }>;
}
/** What a webhook endpoint answered to one event. */
export interface Delivery {
  url: string;
  event: Json;
  payload: string;
  signature: string;
  status: number;
}

const LABELS = {
  en: { pay: "Pay", back: "Back", expired: "This Checkout Session has expired.", paid: "This payment is complete." },
  fr: {
    pay: "Payer",
    back: "Retour",
    expired: "Cette session de paiement a expiré.",
    paid: "Ce paiement est effectué.",
  },
};
const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;
const seconds = () => Math.floor(Date.now() / 1000);
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: Json,
  ) {
    super(String(error.message));
  }
}
const invalidRequest = (message: string, extra: Json = {}) =>
  new StripeFailure(400, { type: "invalid_request_error", message, ...extra });
const missing = (kind: string, value: string, param = "id") =>
  new StripeFailure(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    param,
    message: `No such ${kind}: '${value}'`,
  });

/** Stripe's form bodies: `line_items[0][price_data][currency]=chf` into nested objects and arrays (`a[]=` appends). */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, "").split("[");
    if (path.some((part) => ["__proto__", "constructor", "prototype"].includes(part))) continue;
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      const name = part === "" && Array.isArray(node) ? String(node.length) : part;
      if (i === path.length - 1) node[name] = value;
      else {
        node[name] ??= /^\d*$/.test(path[i + 1] ?? "") ? [] : {};
        node = node[name] as Record<string, unknown>;
      }
    });
  }
  return root;
}

export async function startStripeStandIn(options: { port?: number } = {}) {
  const accounts = new Map<string, Account>();
  /** Every session by id, with the key of its account: the hosted page has no key. */
  const sessions = new Map<string, { key: string; session: Session }>();
  const events: Json[] = [];
  const deliveries: Delivery[] = [];
  const pending = new Set<Promise<unknown>>();
  let url = "";

  const accountOf = (req: IncomingMessage) => {
    // Bearer, as the client sends it, or Basic with the key as the user name, as `curl -u sk_test_…:` does.
    const [scheme, credentials] = (req.headers.authorization ?? "").split(" ");
    const basic =
      scheme === "Basic"
        ? Buffer.from(credentials ?? "", "base64")
            .toString()
            .split(":")[0]
        : undefined;
    const key = scheme === "Bearer" ? credentials : basic;
    if (!key)
      throw new StripeFailure(401, {
        type: "invalid_request_error",
        message: "You did not provide an API key. Provide it in the Authorization header (Bearer auth).",
      });
    if (!/^(sk|rk)_test_[A-Za-z0-9]{8,}$/.test(key))
      throw new StripeFailure(401, {
        type: "invalid_request_error",
        message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`,
      });
    const account = accounts.get(key) ?? { endpoints: [], refunds: [], idempotent: new Map() };
    accounts.set(key, account);
    return { key, account };
  };
  const sessionOf = (key: string, sessionId: string) => {
    const found = sessions.get(sessionId);
    if (!found || found.key !== key) throw missing("checkout.session", sessionId);
    return expireIfDue(found.session, key);
  };
  /** A session past its `expires_at` expires, as Stripe's do. */
  const expireIfDue = (session: Session, key: string) => {
    if (session.status === "open" && session.expires_at <= seconds()) expire(session, key);
    return session;
  };

  /** Signs the event for each endpoint of the account that listens to it, and posts it; resolves once all answered. */
  async function deliver(key: string, type: string, object: Json) {
    const event = { id: id("evt"), object: "event", api_version: null, created: seconds(), livemode: false, type };
    const full = { ...event, data: { object }, pending_webhooks: 0, request: { id: null, idempotency_key: null } };
    events.push(full);
    const targets = (accounts.get(key)?.endpoints ?? []).filter(
      (e) => e.enabled_events.includes("*") || e.enabled_events.includes(type),
    );
    await Promise.all(
      targets.map(async (endpoint) => {
        const payload = JSON.stringify(full, null, 2);
        const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: endpoint.secret });
        const answer = await fetch(endpoint.url, {
          method: "POST",
          headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature },
          body: payload,
        }).catch(() => null);
        await answer?.text();
        deliveries.push({ url: endpoint.url, event: full, payload, signature, status: answer?.status ?? 0 });
      }),
    );
  }
  /** Delivered in the background, as Stripe does; `idle()` waits for it. */
  const deliverLater = (key: string, type: string, object: Json) => {
    const delivery = deliver(key, type, object).finally(() => pending.delete(delivery));
    pending.add(delivery);
  };
  function expire(session: Session, key: string) {
    Object.assign(session, { status: "expired", url: null });
    deliverLater(key, "checkout.session.expired", session);
  }

  function createSession(form: Json): Session {
    const lines = Array.isArray(form.line_items) ? (form.line_items as Json[]) : [];
    if (form.mode !== "payment")
      throw invalidRequest("This stand-in only creates sessions in payment mode.", { param: "mode" });
    if (lines.length === 0) throw invalidRequest("line_items is required in payment mode.", { param: "line_items" });
    let currency = "";
    let total = 0;
    for (const [i, line] of lines.entries()) {
      const price = (line.price_data ?? {}) as Json;
      const amount = Number(price.unit_amount);
      const quantity = Number(line.quantity ?? 1);
      if (!Number.isInteger(amount) || amount < 0)
        throw invalidRequest("Invalid integer", {
          code: "parameter_invalid_integer",
          param: `line_items[${i}][price_data][unit_amount]`,
        });
      currency = String(price.currency ?? "").toLowerCase();
      total += amount * quantity;
    }
    const now = seconds();
    const expiresAt = form.expires_at === undefined ? now + 24 * 3600 : Number(form.expires_at);
    if (!(expiresAt >= now + 30 * 60 && expiresAt <= now + 24 * 3600))
      throw invalidRequest(
        "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
        { param: "expires_at" },
      );
    const sessionId = id("cs");
    return {
      id: sessionId,
      object: "checkout.session",
      amount_subtotal: total,
      amount_total: total,
      cancel_url: form.cancel_url ?? null,
      client_reference_id: form.client_reference_id ?? null,
      created: now,
      currency,
      customer: null,
      customer_email: form.customer_email ?? null,
      expires_at: expiresAt,
      livemode: false,
      locale: form.locale ?? null,
      metadata: (form.metadata as Json) ?? {},
      mode: "payment",
      payment_intent: null,
      payment_method_types: ["card"],
      payment_status: "unpaid",
      status: "open",
      success_url: form.success_url ?? null,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      url: `${url}/c/pay/${sessionId}`,
    };
  }

  function createRefund(account: Account, key: string, form: Json): Refund {
    const paymentIntent = String(form.payment_intent ?? "");
    const paid = [...sessions.values()].find((s) => s.key === key && s.session.payment_intent === paymentIntent);
    if (!paid) throw missing("payment_intent", paymentIntent, "payment_intent");
    const refunded = account.refunds
      .filter((r) => r.payment_intent === paymentIntent)
      .reduce((n, r) => n + r.amount, 0);
    const left = paid.session.amount_total - refunded;
    if (left <= 0)
      throw invalidRequest(`Charge for ${paymentIntent} has already been refunded.`, {
        code: "charge_already_refunded",
      });
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1)
      throw invalidRequest("Invalid positive integer", { code: "parameter_invalid_integer", param: "amount" });
    if (amount > left)
      throw invalidRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, {
        param: "amount",
      });
    const refund = {
      id: id("re"),
      object: "refund",
      amount,
      balance_transaction: null,
      charge: `ch_${paymentIntent.slice(3)}`,
      created: seconds(),
      currency: paid.session.currency,
      metadata: (form.metadata as Json) ?? {},
      payment_intent: paymentIntent,
      reason: form.reason ?? null,
      status: "succeeded",
    };
    account.refunds.push(refund);
    return refund;
  }

  /** The API: `[status, body]` for an authenticated call. */
  function api(req: IncomingMessage, path: string, form: Json, key: string, account: Account): [number, Json] {
    const session = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (req.method === "POST" && path === "/v1/checkout/sessions") {
      const created = createSession(form);
      sessions.set(created.id, { key, session: created });
      return [200, created];
    }
    if (req.method === "GET" && session && !session[2]) return [200, sessionOf(key, session[1] ?? "")];
    if (req.method === "POST" && session?.[2]) {
      const open = sessionOf(key, session[1] ?? "");
      if (open.status !== "open")
        throw invalidRequest(`Only Checkout Sessions with a status in ["open"] can be expired.`, { param: "session" });
      expire(open, key);
      return [200, open];
    }
    if (req.method === "POST" && path === "/v1/refunds") return [200, createRefund(account, key, form)];
    if (req.method === "POST" && path === "/v1/webhook_endpoints") {
      const events = Array.isArray(form.enabled_events) ? form.enabled_events.map(String) : [];
      if (!form.url || events.length === 0)
        throw invalidRequest("Missing required param: url or enabled_events.", { code: "parameter_missing" });
      const endpoint: Endpoint = {
        id: id("we"),
        object: "webhook_endpoint",
        api_version: null,
        application: null,
        created: seconds(),
        description: null,
        enabled_events: events,
        livemode: false,
        metadata: {},
        secret: `whsec_${randomBytes(24).toString("hex")}`,
        status: "enabled",
        url: String(form.url),
      };
      account.endpoints.push(endpoint);
      return [200, endpoint];
    }
    throw new StripeFailure(404, {
      type: "invalid_request_error",
      message: `Unrecognized request URL (${req.method}: ${path}).`,
    });
  }

  /** The hosted page: the amount, Pay, and the way back; an expired or paid session says so and takes nothing. */
  function page(session: Session) {
    const labels = session.locale === "fr" ? LABELS.fr : LABELS.en;
    const amount = `CHF ${(session.amount_total / 100).toFixed(2)}`;
    const state =
      session.status === "open"
        ? `<form method="post"><button type="submit">${labels.pay} ${amount}</button></form>`
        : `<p role="status">${session.status === "complete" ? labels.paid : labels.expired}</p>`;
    const back = session.cancel_url
      ? `<p><a href="${escapeHtml(String(session.cancel_url))}">${labels.back}</a></p>`
      : "";
    return `<!doctype html><html lang="${session.locale === "fr" ? "fr" : "en"}"><head><meta charset="utf-8"><title>Stripe stand-in</title></head><body><h1>${amount}</h1>${state}${back}</body></html>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const hosted = /^\/c\/pay\/([^/]+)$/.exec(path);
    if (hosted) {
      const found = sessions.get(hosted[1] ?? "");
      if (!found) return void res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      const session = expireIfDue(found.session, found.key);
      if (req.method === "POST" && session.status === "open") {
        Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: id("pi"), url: null });
        await deliver(found.key, "checkout.session.completed", session);
        const to = String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id);
        return void res.writeHead(303, { location: to }).end();
      }
      return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(session));
    }
    try {
      const { key, account } = accountOf(req);
      const form = parseStripeForm(text);
      const idempotencyKey = req.method === "POST" ? req.headers["idempotency-key"] : undefined;
      const request = `${req.method} ${path} ${text}`;
      const seen = typeof idempotencyKey === "string" ? account.idempotent.get(idempotencyKey) : undefined;
      if (seen && seen.request !== request)
        throw new StripeFailure(400, {
          type: "idempotency_error",
          message: "Keys for idempotent requests can only be used with the same parameters they were first used with.",
        });
      if (seen)
        return void res
          .writeHead(seen.status, { "content-type": "application/json", "idempotent-replayed": "true" })
          .end(JSON.stringify(seen.body));
      let answer: [number, Json];
      try {
        answer = api(req, path, form, key, account);
      } catch (error) {
        if (!(error instanceof StripeFailure) || error.status >= 500) throw error;
        answer = [error.status, { error: error.error }];
      }
      if (typeof idempotencyKey === "string")
        account.idempotent.set(idempotencyKey, { request, status: answer[0], body: answer[1] });
      res
        .writeHead(answer[0], { "content-type": "application/json", "request-id": id("req") })
        .end(JSON.stringify(answer[1]));
    } catch (error) {
      const failure =
        error instanceof StripeFailure ? error : new StripeFailure(500, { type: "api_error", message: String(error) });
      res
        .writeHead(failure.status, { "content-type": "application/json" })
        .end(JSON.stringify({ error: failure.error }));
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
  const idle = async () => {
    while (pending.size) await Promise.all([...pending]);
  };
  return {
    url,
    port,
    /** STRIPE_API_URL for the product. */
    env: { STRIPE_API_URL: url },
    session: (sessionId: string) => sessions.get(sessionId)?.session,
    refundsOf: (paymentIntent: string) =>
      [...accounts.values()].flatMap((a) => a.refunds).filter((r) => r.payment_intent === paymentIntent),
    events,
    deliveries,
    /** Waits for the webhooks delivered in the background (an expired session's). */
    idle,
    async close() {
      await idle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

// The `demo` payment module: a hosted payment page served by the API, and an HMAC-signed webhook that
// resolves the invoice exactly once (DESIGN.md 4 "Payments").

import { createHash } from "node:crypto";
import { eq, schema } from "@ticketing/db";
import { PAYMENT_OUTCOMES } from "@ticketing/shared/constants";
import { formatMoney } from "@ticketing/shared/money";
import { ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import { Hono } from "hono";
import { html, raw } from "hono/html";
import { z } from "zod";
import type { AppEnv, Ctx } from "../context.ts";
import { invalid, notFound } from "../lib/errors.ts";
import { idParam, parseWith, readBody } from "../lib/http.ts";
import { apiTranslator } from "../lib/i18n.ts";
import { hmacHex, hmacMatches } from "../lib/tokens.ts";
import { demoPaymentUrl, type PaymentState, paymentState, resolvePayment } from "../services/checkout.ts";

const WebhookBody = z.strictObject({
  intent_id: z.number().int().positive(),
  psp_id: z.string().min(1),
  outcome: z.enum(PAYMENT_OUTCOMES),
});

async function loadIntent(c: Ctx, intentId: number, signature: string) {
  const { database, config } = c.get("deps");
  const row = await database.db
    .select({ intent: schema.paymentIntents, invoice: schema.invoices, basket: schema.baskets, event: schema.events })
    .from(schema.paymentIntents)
    .innerJoin(schema.invoices, eq(schema.invoices.id, schema.paymentIntents.invoiceId))
    .innerJoin(schema.baskets, eq(schema.baskets.id, schema.invoices.basketId))
    .innerJoin(schema.events, eq(schema.events.id, schema.baskets.eventId))
    .where(eq(schema.paymentIntents.id, intentId))
    .get();
  if (row?.intent.moduleKey !== "demo") throw notFound();
  if (!/^[0-9a-f]{64}$/.test(signature) || !hmacMatches(config.secretKey, `demo-pay:${row.intent.pspId}`, signature))
    throw notFound();
  return row;
}

type Row = Awaited<ReturnType<typeof loadIntent>>;

/** The ticket-office page a closed payment leads back to. */
function nextStep(publicUrl: string, { intent, basket, event }: Row, state: Exclude<PaymentState, "open">) {
  const step = {
    paid: `payment/return/${intent.id}/success`,
    // The basket was emptied with the expiry: the buy page says so and offers its articles again.
    expired: "buy",
    cancelled: "checkout/payment-method",
    failed: "checkout/payment-method",
  }[state];
  return ticketOfficeUrl(publicUrl, event, basket.testing, step);
}

const PAGE_STYLE = `
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
h1 { font-size: 1.4rem; } form { display: grid; gap: .75rem; margin-top: 1.5rem; }
button { font-size: 1rem; padding: .8rem; border-radius: .4rem; border: 1px solid #888; background: #fff; cursor: pointer; }
button[value=success] { background: #14532d; color: #fff; border-color: #14532d; }
`;
/**
 * The page's own policy (docs/decisions/0007): its one inline style allowed by its hash, no script, its form posted
 * only to itself. The ticket office opens the page as a document of its own (without Turbo), so this policy is
 * the one that applies.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(PAGE_STYLE).digest("base64")}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** `api` is the API app itself: the page sends its webhook through the real, signature-checking route. */
export function paymentRoutes(api: Hono<AppEnv>) {
  const routes = new Hono<AppEnv>();

  routes.get("/demo/pay/:id", async (c) => {
    const row = await loadIntent(c, idParam(c), c.req.query("sig") ?? "");
    const { invoice, basket } = row;
    // The buyer's language at checkout, whatever the browser says.
    const language = basket.language;
    const t = apiTranslator(language);
    const amount = formatMoney(invoice.amount, language);
    const state = paymentState(row.intent, row.invoice);
    const sig = c.req.query("sig") ?? "";
    c.header("Content-Security-Policy", PAGE_POLICY);
    return c.html(html`<!doctype html>
<html lang="${language}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${t("payment_page.title")}</title>
    <style>${raw(PAGE_STYLE)}</style>
  </head>
  <body>
    <h1>${t("payment_page.title")}</h1>
    <p>${t("payment_page.intro")}</p>
    <p><strong>${t("payment_page.amount", { amount })}</strong></p>
    ${
      state === "open"
        ? html`<form method="post">
          <input type="hidden" name="sig" value="${sig}" />
          <button type="submit" name="outcome" value="success">${t("payment_page.pay", { amount })}</button>
          <button type="submit" name="outcome" value="cancel">${t("payment_page.cancel")}</button>
          <button type="submit" name="outcome" value="error">${t("payment_page.error")}</button>
        </form>`
        : html`<p role="status">${t(`payment_page.closed.${state}`)}</p>
        <p><a href="${nextStep(c.get("deps").config.publicUrl, row, state)}">${t(`payment_page.next.${state}`)}</a></p>`
    }
  </body>
</html>`);
  });

  routes.post("/demo/pay/:id", async (c) => {
    const form = await readBody(c, z.strictObject({ sig: z.string(), outcome: z.enum(PAYMENT_OUTCOMES) }));
    const id = idParam(c);
    const { intent } = await loadIntent(c, id, form.sig);
    const { config } = c.get("deps");
    const body = JSON.stringify({ intent_id: intent.id, psp_id: intent.pspId, outcome: form.outcome });
    const response = await api.request("/payments/demo/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature": `sha256=${hmacHex(config.secretKey, body)}` },
      body,
    });
    const webhook = response.ok ? ((await response.json()) as { changed: boolean }) : { changed: false };
    // The outcome is what the payment now is, not the button pressed: "pay" on a payment cancelled or expired
    // meanwhile changes nothing, and must not send the buyer to a success page that then waits forever.
    const row = await loadIntent(c, id, form.sig);
    const state = paymentState(row.intent, row.invoice);
    if (state === "paid" || webhook.changed) {
      const outcome = state === "paid" ? "success" : form.outcome;
      return c.redirect(
        ticketOfficeUrl(config.publicUrl, row.event, row.basket.testing, `payment/return/${intent.id}/${outcome}`),
        303,
      );
    }
    // Nothing changed: the page itself says where the payment stands.
    return c.redirect(demoPaymentUrl(config.publicUrl, config.secretKey, intent), 303);
  });

  routes.post("/demo/webhook", async (c) => {
    const { database, config, onMailQueued } = c.get("deps");
    const raw = await c.req.text();
    const signature = (c.req.header("x-signature") ?? "").replace(/^sha256=/, "");
    if (!/^[0-9a-f]{64}$/.test(signature) || !hmacMatches(config.secretKey, raw, signature))
      throw invalid("errors.payment_signature");
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw invalid("The request body is not valid JSON");
    }
    const body = parseWith(WebhookBody, json);
    const result = await resolvePayment(database, {
      intentId: body.intent_id,
      pspId: body.psp_id,
      outcome: body.outcome,
      now: c.get("deps").now?.() ?? new Date(),
    });
    if (result.changed && body.outcome === "success") onMailQueued?.();
    return c.json({ received: true, changed: result.changed, basket_status: result.basket.status });
  });

  return routes;
}

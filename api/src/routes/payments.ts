// The `demo` payment module: a hosted payment page served by the API, and an HMAC-signed webhook that
// resolves the invoice exactly once (docs/design.md §4 "Payments").
import { createHash } from "node:crypto";
import { formatMoney } from "@ticketing/shared/money";
import {
  DemoPaymentChoice,
  DemoPaymentPageQuery,
  DemoWebhookReceived,
  StripeWebhookReceived,
} from "@ticketing/shared/schemas/payments";
import { Hono } from "hono";
import { html, raw } from "hono/html";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { apiTranslator } from "../lib/i18n.ts";
import { route } from "../lib/route.ts";
import {
  type DemoPaymentPage,
  payDemo,
  receiveDemoWebhook,
  showDemoPayment,
} from "../services/checkout/payments/demo.ts";
import { receiveStripeWebhook } from "../services/checkout/payments/stripe-webhooks.ts";

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

/** The hosted page, in the buyer's language at checkout: the buttons while the payment is open, else its outcome. */
function renderPage({ language, amount: cents, state, next }: DemoPaymentPage, sig: string) {
  const t = apiTranslator(language);
  const amount = formatMoney(cents, language);
  return html`<!doctype html>
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
        <p><a href="${next}">${t(`payment_page.next.${state}`)}</a></p>`
    }
  </body>
</html>`;
}

export const paymentRoutes = new Hono<AppEnv>();

paymentRoutes.get(
  "/demo/pay/:id",
  route(
    {
      summary: "The demo provider's hosted payment page (opened by its signed link)",
      query: DemoPaymentPageQuery,
      produces: "text/html",
    },
    async (c, { query }) => {
      const { database, config } = c.get("deps");
      const sig = query.sig ?? "";
      const page = await showDemoPayment(database, config, idParam(c), sig);
      c.header("Content-Security-Policy", PAGE_POLICY);
      return c.html(renderPage(page, sig));
    },
  ),
);

paymentRoutes.post(
  "/demo/pay/:id",
  route(
    {
      summary: "A button of the demo payment page: sends the provider's verdict, then the buyer on (303)",
      description: "Redirects to the ticket office's return page, or back to the payment page when nothing changed.",
      body: DemoPaymentChoice,
      status: 303,
    },
    async (c, { body }) => c.redirect(await payDemo(c.get("deps"), idParam(c), body, now(c)), 303),
  ),
);

paymentRoutes.post(
  "/demo/webhook",
  route(
    {
      summary: "The demo provider's verdict on a payment intent",
      description:
        "Body `{intent_id, psp_id, outcome}` (outcome `success`, `cancel` or `error`), signed with " +
        "`X-Signature: sha256=<HMAC-SHA256 of the raw body>`; the signature is checked before the body is read. " +
        "A verdict that came before changes nothing.",
      answer: DemoWebhookReceived,
    },
    async (c) =>
      answer(c, await receiveDemoWebhook(c.get("deps"), await c.req.text(), c.req.header("x-signature"), now(c))),
  ),
);

paymentRoutes.post(
  "/stripe/webhook/:unitId",
  route(
    {
      summary: "Stripe's notifications about the unit's Checkout Sessions (the unit's webhook endpoint)",
      description:
        "Stripe's event as sent, signed with the unit's webhook signing secret in `Stripe-Signature`, checked " +
        "before the body is read. Acts on `checkout.session.completed`, `checkout.session.async_payment_succeeded`, " +
        "`checkout.session.async_payment_failed` and `checkout.session.expired`; other events are received and " +
        "change nothing. 400 when the signature, the session or its amount is wrong; an event seen before changes " +
        "nothing.",
      answer: StripeWebhookReceived,
    },
    async (c) =>
      answer(
        c,
        await receiveStripeWebhook(
          c.get("deps"),
          idParam(c, "unitId"),
          await c.req.text(),
          c.req.header("stripe-signature"),
          now(c),
        ),
      ),
  ),
);

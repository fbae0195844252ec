// The Stripe stand-in on its own (Playwright's webServer, or by hand):
//   node --import tsx api/src/stripe-stand-in/main.ts --port 12111
// then run the product with STRIPE_API_URL=http://127.0.0.1:12111, create a webhook endpoint with any
// `sk_test_…` key (POST /v1/webhook_endpoints) and enter that key and the `whsec_…` it answers in the unit's
// Stripe settings.
import { parseArgs } from "node:util";
import { startStripeStandIn } from "./server.ts";

const { values } = parseArgs({ options: { port: { type: "string", default: "12111" } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port takes a port number, not ${values.port}`);
  process.exit(2);
}
const standIn = await startStripeStandIn({ port });
console.log(`Stripe stand-in listening on ${standIn.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void standIn.close().then(() => process.exit(0));
  });

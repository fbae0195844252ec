// Checkout under load: each buyer, whose basket holds an article, gives their billing details and orders the
// basket for online payment (a payment intent with the demo module), two requests in a row on one connection;
// against the bare reference doing the same two writes on an order row, in the same run.
import { answeredWith, cannon, type LoadFigures } from "./cannon.ts";
import { BILLING, json, round, startServer } from "./lib.ts";
import { apiOf, buyersOf, publicEventWithArticle } from "./rush.ts";

const BUYERS = Number(process.env.CHECKOUT_BUYERS ?? 2_000);

export interface CheckoutFigures {
  buyers: number;
  product: LoadFigures & { checkoutsPerSecond: number };
  reference: LoadFigures & { checkoutsPerSecond: number };
  ratio: number;
}

/** Checkouts answered per second: the product answers an order 200 (billing 201); the reference both 201. */
const checkouts = (load: LoadFigures, answers: number) => ({
  ...load,
  checkoutsPerSecond: round(answers / load.seconds, 0),
});

/** Every buyer checks out once: the run stops after their two requests each (autocannon's `amount`). */
async function loadProduct(url: string) {
  const api = apiOf(url);
  const { event, article } = await publicEventWithArticle(api, "Checkout load", 1_000_000);
  const buyers = await buyersOf(api, event, BUYERS);
  for (let i = 0; i < buyers.length; i += 50)
    await Promise.all(
      buyers
        .slice(i, i + 50)
        .map((b) => api.post("/frontend/selected-nodes", { basket_id: b.basketId, node_id: article.node.id }, b.token)),
    );
  let turn = 0;
  const headers = (token: string) => ({ "content-type": "application/json", authorization: `Bearer ${token}` });
  const load = await cannon(
    url,
    [
      (context) => {
        const buyer = buyers[turn++ % buyers.length] as (typeof buyers)[number];
        context.buyer = buyer;
        return {
          method: "POST",
          path: "/api/v1/frontend/billing-information",
          headers: headers(buyer.token),
          body: JSON.stringify({ basket_id: buyer.basketId, ...BILLING }),
        };
      },
      (context) => {
        const buyer = context.buyer as (typeof buyers)[number];
        return {
          method: "POST",
          path: `/api/v1/frontend/baskets/${buyer.basketId}/checkout`,
          headers: headers(buyer.token),
          body: JSON.stringify({ payment_method: "online", terms_accepted: true }),
        };
      },
    ],
    { expected: [200, 201], amount: buyers.length * 2 },
  );
  return checkouts(load, answeredWith(load, 200));
}

async function loadReference() {
  const server = await startServer("bench/reference-server.ts", "/stocks/0");
  try {
    const orders: number[] = [];
    for (let i = 0; i < BUYERS; i++)
      orders.push((await json(await fetch(`${server.url}/orders`, { method: "POST" }))).id);
    let turn = 0;
    const load = await cannon(
      server.url,
      [
        (context) => {
          const order = orders[turn++ % orders.length] as number;
          context.order = order;
          return {
            method: "POST",
            path: `/orders/${order}/billing`,
            headers: { "content-type": "application/json" },
            body: JSON.stringify(BILLING),
          };
        },
        (context) => ({ method: "POST", path: `/orders/${context.order}/checkout` }),
      ],
      { expected: [201], amount: orders.length * 2 },
    );
    return checkouts(load, answeredWith(load, 201) / 2);
  } finally {
    await server.stop();
  }
}

export async function benchCheckout(): Promise<CheckoutFigures> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  let product: CheckoutFigures["product"];
  try {
    product = await loadProduct(server.url);
  } finally {
    await server.stop();
  }
  const reference = await loadReference();
  return {
    buyers: BUYERS,
    product,
    reference,
    ratio: round(product.checkoutsPerSecond / reference.checkoutsPerSecond, 3),
  };
}

export function checkoutReport(f: CheckoutFigures): string {
  const row = (name: string, l: CheckoutFigures["product"]) =>
    `| ${name} | ${l.checkoutsPerSecond} | ${l.requestsPerSecond} | ${l.p50Ms} | ${l.p99Ms} | ${l.errors} |`;
  return `## Checkout

${f.buyers} buyers, each with an article in their basket, give their billing details and order the basket for online
payment (two requests in a row on one of ${f.product.connections} connections, each buyer once); the reference writes
the same two steps on an order row (billing, then status and a payment row in one transaction).

| | checkouts/s | requests/s | p50 ms | p99 ms | errors |
| --- | ---: | ---: | ---: | ---: | ---: |
${row("product", f.product)}
${row("reference", f.reference)}

**product / reference (checkouts per second): ${f.ratio}**
`;
}

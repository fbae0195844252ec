// The payment-method step's "Cancel this payment" (a form, so it works without JavaScript): the ongoing payment is
// cancelled through the API, and a refusal (docs/specification.md §8 "Failed to cancel an ongoing payment") is shown,
// not hidden.
import { describe, expect, it } from "vitest";
import { loginKey, sessionStorage } from "#app/lib/session.server.ts";
import { action, loader } from "#app/routes/tickets/$path/checkout/payment-method/route.tsx";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const publicInfos = {
  id: 1,
  registration_module_id: 4,
  frontend_path: "demo",
  access_methods: ["anonymous"],
  are_payments_allowed: true,
  is_point_of_sale_enabled: false,
};

/** The visitor's basket 3, being paid by payment intent 7; the cancel answers `cancelStatus`. */
function payingApi(cancelStatus: number) {
  const calls: string[] = [];
  let ongoing = true;
  const basket = () => ({
    id: 3,
    event_id: 1,
    status: ongoing ? "payment_in_progress" : "new",
    testing: false,
    total: 2500,
    billing_information: { id: 2, first_name: "Ada", last_name: "Lovelace", email: "ada@example.org" },
    items: [{ id: 1, node_id: 2, title: "Entry", price: 2500 }],
    promotion_codes: [],
    payment_intents: [
      {
        id: 7,
        module_key: "stripe",
        is_error: false,
        is_cancelled: !ongoing,
        error_message: null,
        invoice: { id: 5, is_resolved: false, is_cancelled: !ongoing },
        is_ongoing: ongoing,
        payment_url: ongoing ? "https://checkout.stripe.com/c/pay/cs_test_1" : null,
      },
    ],
  });
  const apiFetch = async (path: string, init?: RequestInit) => {
    if (init?.method === "POST") calls.push(path);
    if (path.startsWith("/events/public-infos")) return json(200, publicInfos);
    if (path.startsWith("/frontend/baskets?")) return json(200, [{ id: 3, status: basket().status }]);
    if (path === "/frontend/baskets/3") return json(200, basket());
    if (path === "/frontend/payment-intents/7/cancel" && init?.method === "POST") {
      if (cancelStatus !== 200) return json(cancelStatus, { errors: ["Failed to cancel an ongoing payment."] });
      ongoing = false;
      return json(200, basket());
    }
    return json(404, { errors: ["Resource not found"] });
  };
  return { apiFetch, calls };
}

async function request(method: "GET" | "POST", form?: Record<string, string>) {
  const session = await sessionStorage.getSession();
  session.set("logins", { [loginKey(1, false)]: { accessToken: "a1", refreshToken: "r1" } });
  return new Request("http://localhost/tickets/demo/checkout/payment-method", {
    method,
    headers: {
      Cookie: await sessionStorage.commitSession(session),
      ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
}

async function post(form: Record<string, string>, context: ReturnType<typeof payingApi>) {
  const args = { request: await request("POST", form), params: { path: "demo" }, context } as never;
  return action(args).then(
    (result) => {
      const answer = result as unknown as { data?: Record<string, unknown>; init?: ResponseInit | null } | Response;
      if (answer instanceof Response) return { location: answer.headers.get("Location"), data: null, status: 302 };
      return { location: null, data: answer.data ?? null, status: answer.init?.status ?? 200 };
    },
    (error: Response) => ({ location: error.headers.get("Location"), data: null, status: error.status }),
  );
}

describe("payment method step, with a payment ongoing", () => {
  it("offers to continue the payment or to cancel it", async () => {
    const args = { request: await request("GET"), params: { path: "demo" }, context: payingApi(200) } as never;
    const page = (await loader(args)) as unknown as { data: Record<string, unknown> };
    expect(page.data.ongoingPayment).toMatchObject({
      id: 7,
      paymentUrl: "https://checkout.stripe.com/c/pay/cs_test_1",
    });
  });

  it("cancels it, then shows the basket again with the payment cancelled", async () => {
    const api = payingApi(200);
    const answer = await post({ intent: "cancelPayment", paymentIntentId: "7" }, api);
    expect(answer.location).toBe("/tickets/demo/checkout/payment-method?payment=cancelled");
    expect(api.calls).toEqual(["/frontend/payment-intents/7/cancel"]);
  });

  it("says so when the payment could not be cancelled", async () => {
    const api = payingApi(409);
    const answer = await post({ intent: "cancelPayment", paymentIntentId: "7" }, api);
    expect(answer).toMatchObject({ status: 409, data: { errors: ["Failed to cancel an ongoing payment."] } });
    expect(api.calls).toEqual(["/frontend/payment-intents/7/cancel"]);
  });

  it("cancels the ongoing payment whatever id the form carries, and never starts a new one", async () => {
    const api = payingApi(200);
    const answer = await post({ intent: "cancelPayment", paymentIntentId: "999" }, api);
    expect(answer.location).toBe("/tickets/demo/checkout/payment-method?payment=cancelled");
    expect(api.calls).toEqual(["/frontend/payment-intents/7/cancel"]);
  });
});

// The page the payment provider sends the buyer back to (docs/specification.md §2.4): it waits for the provider's
// confirmation a bounded time, and shows a payment that will not be confirmed (cancelled, expired, failed) for
// what it is.
import { describe, expect, it } from "vitest";
import { loginKey, sessionStorage } from "#app/lib/session.server.ts";
import { loader, meta } from "#app/routes/tickets/$path/payment/return/$id/$status/route.tsx";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const publicInfos = { id: 1, registration_module_id: 4, frontend_path: "demo", access_methods: ["anonymous"] };

/** A visitor's one basket, with payment intent 7 in the given state. */
function fakeApi(intent: Record<string, unknown>, basket: { status: string; items?: unknown[] }) {
  const row = {
    id: 3,
    event_id: 1,
    status: basket.status,
    testing: false,
    total: 2500,
    billing_information: null,
    items: basket.items ?? [{ id: 1, node_id: 2, title: "Entry", price: 2500 }],
    payment_intents: [
      {
        id: 7,
        module_key: "demo",
        is_error: false,
        is_cancelled: false,
        error_message: null,
        invoice: null,
        ...intent,
      },
    ],
  };
  const apiFetch = async (path: string) => {
    if (path.startsWith("/events/public-infos")) return json(200, publicInfos);
    if (path.startsWith("/frontend/baskets?")) return json(200, [{ id: 3, status: basket.status }]);
    if (path === "/frontend/baskets/3") return json(200, row);
    return json(404, { errors: ["Resource not found"] });
  };
  return { apiFetch };
}

/** The page's answer for a visitor signed in to the event (`signedIn`, the default) or not signed in at all. */
async function returnPage(
  url: string,
  context: Pick<ReturnType<typeof fakeApi>, "apiFetch">,
  { signedIn = true } = {},
) {
  const session = await sessionStorage.getSession();
  if (signedIn) session.set("logins", { [loginKey(1, false)]: { accessToken: "a1", refreshToken: "r1" } });
  const request = new Request(url, { headers: { Cookie: await sessionStorage.commitSession(session) } });
  const [, , , , , id, status] = new URL(url).pathname.split("/");
  const args = { request, params: { path: "demo", id, status }, context } as never;
  return loader(args).then(
    (result) => {
      const answer = result as unknown as { data: Record<string, unknown>; init?: ResponseInit | null };
      return { location: null, data: answer.data, init: answer.init ?? null, status: answer.init?.status ?? 200 };
    },
    (error: Response | { init: ResponseInit | null }) =>
      error instanceof Response
        ? { location: error.headers.get("Location"), data: null, init: null, status: error.status }
        : { location: null, data: null, init: error.init, status: error.init?.status ?? 200 },
  );
}

const refreshOf = (data: Record<string, unknown> | null) =>
  (meta({ data } as never) as { httpEquiv?: string; content?: string }[]).find((tag) => tag.httpEquiv === "refresh")
    ?.content ?? null;

describe("payment return page of someone else's payment", () => {
  const owner = () => fakeApi({}, { status: "payment_in_progress" });

  it("is the page of the payment for the buyer whose basket holds it", async () => {
    const page = await returnPage("http://localhost/tickets/demo/payment/return/7/success", owner());
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ status: "success" });
  });

  it.each(["success", "error", "cancel"])(
    "is not found (404) for a visitor whose baskets do not hold it (%s)",
    async (status) => {
      const page = await returnPage(`http://localhost/tickets/demo/payment/return/8/${status}`, owner());
      expect(page).toMatchObject({ status: 404, location: null, data: null });
    },
  );

  it("is not found (404) for a visitor not signed in, rather than a login that would lead to it", async () => {
    const page = await returnPage("http://localhost/tickets/demo/payment/return/7/success", owner(), {
      signedIn: false,
    });
    expect(page).toMatchObject({ status: 404, location: null, data: null });
  });
});

describe("payment return page, waiting for the provider's confirmation", () => {
  const waiting = () => fakeApi({}, { status: "payment_in_progress" });
  const base = "http://localhost/tickets/demo/payment/return/7/success";

  it("checks again every 5 seconds, counting its checks", async () => {
    const first = await returnPage(base, waiting());
    expect(refreshOf(first.data)).toBe("5;url=/tickets/demo/payment/return/7/success?check=1");
    const sixth = await returnPage(`${base}?check=6`, waiting());
    expect(refreshOf(sixth.data)).toBe("5;url=/tickets/demo/payment/return/7/success?check=7");
  });

  it("stops after a minute and offers to check again", async () => {
    for (const check of ["12", "13", "999"]) {
      const page = await returnPage(`${base}?check=${check}`, waiting());
      expect(refreshOf(page.data)).toBeNull();
      expect(page.data).toMatchObject({ status: "success", refreshTo: null, checkAgain: new URL(base).pathname });
    }
  });

  it("starts counting from 0 for a check number that is not one", async () => {
    for (const check of ["-1", "abc", "1e3", "1000"]) {
      const page = await returnPage(`${base}?check=${encodeURIComponent(check)}`, waiting());
      expect(refreshOf(page.data)).toBe("5;url=/tickets/demo/payment/return/7/success?check=1");
    }
  });

  it("goes to the order once the payment is confirmed", async () => {
    const paid = fakeApi(
      { invoice: { id: 5, amount: 2500, is_resolved: true, is_cancelled: false } },
      { status: "validated" },
    );
    expect((await returnPage(base, paid)).location).toBe("/tickets/demo/completion");
  });

  it("goes back to the payment method, which says so, when the payment was cancelled", async () => {
    const cancelled = fakeApi({ is_cancelled: true }, { status: "new" });
    expect((await returnPage(base, cancelled)).location).toBe(
      "/tickets/demo/checkout/payment-method?payment=cancelled",
    );
  });

  it("goes back to the basket, which says so, when the payment term expired", async () => {
    const expired = fakeApi(
      { is_cancelled: true, error_message: "payment_term_expired" },
      { status: "new", items: [] },
    );
    expect((await returnPage(base, expired)).location).toBe("/tickets/demo/buy");
  });

  it("shows the failure when the provider reported an error", async () => {
    const failed = fakeApi({ is_error: true }, { status: "new" });
    expect((await returnPage(base, failed)).location).toBe("/tickets/demo/payment/return/7/error");
  });
});

/**
 * The provider's cancel_url: the payment is cancelled through the API, and the page says so only when it was; the
 * API's answer to the cancel is `cancel`'s (200, or 409 with a message), the basket's state is `intent`'s after it.
 */
function cancellingApi(before: Record<string, unknown>, cancel: { status: number; after: Record<string, unknown> }) {
  let intent = before;
  const calls: string[] = [];
  const basketStatus = () => ((intent.invoice as { is_resolved?: boolean } | null)?.is_resolved ? "validated" : "new");
  const row = () => ({
    id: 3,
    event_id: 1,
    status: basketStatus(),
    testing: false,
    total: 2500,
    billing_information: null,
    items: [{ id: 1, node_id: 2, title: "Entry", price: 2500 }],
    payment_intents: [
      {
        id: 7,
        module_key: "stripe",
        is_error: false,
        is_cancelled: false,
        error_message: null,
        invoice: null,
        ...intent,
      },
    ],
  });
  const apiFetch = async (path: string, init?: RequestInit) => {
    if (init?.method === "POST") calls.push(path);
    if (path.startsWith("/events/public-infos")) return json(200, publicInfos);
    if (path.startsWith("/frontend/baskets?")) return json(200, [{ id: 3, status: basketStatus() }]);
    if (path === "/frontend/baskets/3") return json(200, row());
    if (path === "/frontend/payment-intents/7/cancel" && init?.method === "POST") {
      intent = cancel.after;
      return cancel.status === 200
        ? json(200, row())
        : json(cancel.status, { errors: ["Failed to cancel an ongoing payment."] });
    }
    return json(404, { errors: ["Resource not found"] });
  };
  return { apiFetch, calls };
}

describe("payment return page, after the buyer left the provider's page (cancel)", () => {
  const url = "http://localhost/tickets/demo/payment/return/7/cancel";
  const ongoing = {
    is_cancelled: false,
    is_ongoing: true,
    invoice: { id: 5, is_resolved: false, is_cancelled: false },
  };
  const cancelled = { is_cancelled: true, invoice: { id: 5, is_resolved: false, is_cancelled: true } };
  const paid = { is_cancelled: false, invoice: { id: 5, is_resolved: true, is_cancelled: false } };

  it("cancels the ongoing payment, then goes back to the payment method, which says so", async () => {
    const api = cancellingApi(ongoing, { status: 200, after: cancelled });
    expect((await returnPage(url, api)).location).toBe("/tickets/demo/checkout/payment-method?payment=cancelled");
    expect(api.calls).toEqual(["/frontend/payment-intents/7/cancel"]);
  });

  it("does not ask again for a payment already cancelled (the demo page cancels it itself)", async () => {
    const api = cancellingApi(cancelled, { status: 409, after: cancelled });
    expect((await returnPage(url, api)).location).toBe("/tickets/demo/checkout/payment-method?payment=cancelled");
    expect(api.calls).toEqual([]);
  });

  it("says the cancel failed when the provider could not cancel the payment, rather than pretending", async () => {
    const api = cancellingApi(ongoing, { status: 409, after: ongoing });
    const page = await returnPage(url, api);
    expect(page.location).toBeNull();
    expect(page.data).toEqual({ status: "cancelFailed", id: "7" });
    expect(page.init?.status).toBe(409);
    expect(api.calls).toEqual(["/frontend/payment-intents/7/cancel"]);
  });

  it("goes to the order when the payment went through instead", async () => {
    const api = cancellingApi(ongoing, { status: 409, after: paid });
    expect((await returnPage(url, api)).location).toBe("/tickets/demo/completion");
  });

  it("goes back to the payment method when the payment closed meanwhile", async () => {
    const api = cancellingApi(ongoing, { status: 409, after: cancelled });
    expect((await returnPage(url, api)).location).toBe("/tickets/demo/checkout/payment-method?payment=cancelled");
  });
});

import { describe, expect, it } from "vitest";
import { loader as oneTicket } from "../routes/tickets/$path/baskets/$basketId/tickets/$itemId/route";
import { loader as orderTickets } from "../routes/tickets/$path/baskets/$basketId/tickets/route";
import { loader as orderLinkTicket } from "../routes/tickets/$path/orders/$token/tickets/$itemId/route";
import { loginKey, sessionStorage } from "./session.server";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const publicInfos = { id: 1, registration_module_id: 1, frontend_path: "demo", access_methods: ["anonymous"] };

/**
 * The API as the ticket routes see it: basket 7 is the visitor's and paid (its order link too), 8 is theirs but
 * unpaid, others not theirs.
 */
function fakeApi() {
  const calls: { path: string; authorization: string | null }[] = [];
  const apiFetch = async (path: string, init: RequestInit = {}) => {
    if (path.startsWith("/events/public-infos")) return json(200, publicInfos);
    calls.push({ path, authorization: new Headers(init.headers).get("Authorization") });
    if (path.startsWith("/frontend/baskets/7/") || path.startsWith("/frontend/orders/7."))
      return new Response("%PDF-1.3 …", {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": 'attachment; filename="tickets-K7Q2.pdf"',
        },
      });
    if (path.startsWith("/frontend/baskets/8/"))
      return json(409, { errors: ["Tickets are available once the order is paid"] });
    return json(404, { errors: ["Resource not found"] });
  };
  return { context: { apiFetch }, calls };
}

async function args(url: string, params: Record<string, string>, context: object, isLoggedIn = true) {
  const session = await sessionStorage.getSession();
  if (isLoggedIn) session.set("logins", { [loginKey(1, false)]: { accessToken: "a1", refreshToken: "r1" } });
  const request = new Request(url, { headers: { Cookie: await sessionStorage.commitSession(session) } });
  return { request, params: { path: "demo", ...params }, context } as never;
}

const thrown = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as { init?: ResponseInit; data?: unknown; status?: number; headers?: Headers },
  );

describe("ticket PDF downloads", () => {
  it("streams the whole order's PDF from the API with the visitor's login, uncached", async () => {
    const { context, calls } = fakeApi();
    const response = await orderTickets(
      await args("http://localhost/tickets/demo/baskets/7/tickets", { basketId: "7" }, context),
    );
    expect(calls).toEqual([{ path: "/frontend/baskets/7/tickets", authorization: "Bearer a1" }]);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="tickets-K7Q2.pdf"');
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.text()).toBe("%PDF-1.3 …");
  });

  it("streams one ticket the same way", async () => {
    const { context, calls } = fakeApi();
    const response = await oneTicket(
      await args("http://localhost/tickets/demo/baskets/7/tickets/3", { basketId: "7", itemId: "3" }, context),
    );
    expect(calls.map((call) => call.path)).toEqual(["/frontend/baskets/7/tickets/3"]);
    expect(await response.text()).toBe("%PDF-1.3 …");
  });

  it("answers 404 for another buyer's order or a malformed id, 409 for an unpaid one, and asks a visitor to log in", async () => {
    const { context, calls } = fakeApi();
    const stranger = await thrown(
      orderTickets(await args("http://localhost/tickets/demo/baskets/9/tickets", { basketId: "9" }, context)),
    );
    expect(stranger?.init?.status).toBe(404);
    const malformed = await thrown(
      orderTickets(await args("http://localhost/tickets/demo/baskets/x/tickets", { basketId: "x" }, context)),
    );
    expect(malformed?.init?.status).toBe(404);
    const unpaid = await thrown(
      orderTickets(await args("http://localhost/tickets/demo/baskets/8/tickets", { basketId: "8" }, context)),
    );
    expect(unpaid).toMatchObject({
      init: { status: 409 },
      data: { errors: ["Tickets are available once the order is paid"] },
    });
    const signedOut = await thrown(
      orderTickets(await args("http://localhost/tickets/demo/baskets/7/tickets", { basketId: "7" }, context, false)),
    );
    expect(signedOut?.status).toBe(302);
    expect(signedOut?.headers?.get("Location")).toBe(
      "/tickets/demo/login?nextUrl=%2Ftickets%2Fdemo%2Fbaskets%2F7%2Ftickets",
    );
    expect(calls.map((call) => call.path)).toEqual(["/frontend/baskets/9/tickets", "/frontend/baskets/8/tickets"]);
  });

  it("answers the storefront's error page (HTML) for a refused download when the product server can render it", async () => {
    const { context } = fakeApi();
    const rendered: number[] = [];
    const renderErrorPage = async (status: number) => {
      rendered.push(status);
      return new Response("<!doctype html><h1>Page not found</h1>", {
        status,
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    };
    const stranger = (await orderTickets(
      await args("http://localhost/tickets/demo/baskets/9/tickets", { basketId: "9" }, { ...context, renderErrorPage }),
    )) as Response;
    expect(stranger.status).toBe(404);
    expect(stranger.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await stranger.text()).toContain("Page not found");
    const unpaid = (await orderTickets(
      await args("http://localhost/tickets/demo/baskets/8/tickets", { basketId: "8" }, { ...context, renderErrorPage }),
    )) as Response;
    expect(unpaid.status).toBe(409);
    expect(rendered).toEqual([404, 409]);
  });

  it("fetches an order link's ticket without a login, whoever opens it", async () => {
    const { context, calls } = fakeApi();
    const token = `7.1900000000.${"a".repeat(64)}`;
    const response = (await orderLinkTicket(
      await args(`http://localhost/tickets/demo/orders/${token}/tickets/3`, { token, itemId: "3" }, context, false),
    )) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(calls).toEqual([{ path: `/frontend/orders/${token}/tickets/3`, authorization: null }]);
  });
});

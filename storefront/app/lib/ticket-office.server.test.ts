import { describe, expect, it } from "vitest";
import { loginKey, sessionStorage } from "./session.server";
import { PreviewSignIn, TicketOffice } from "./ticket-office.server";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const publicInfos = { id: 1, registration_module_id: 1, frontend_path: "demo", access_methods: ["anonymous"] };

const isAuthorised = (init: RequestInit) => new Headers(init.headers).get("Authorization") === "Bearer good";

/**
 * An API where only `good` is a valid access token and `r1` a valid refresh token. Event 1 is public at `demo`, a
 * draft at `draft`: a preview's event (`testing`) is answered to a valid token only, `staff-elsewhere` being staff
 * of another unit.
 */
async function apiFetch(path: string, init: RequestInit = {}) {
  if (path.startsWith("/events/public-infos?") && path.includes("testing=true")) {
    if (isAuthorised(init)) return json(200, publicInfos);
    return new Headers(init.headers).get("Authorization") === "Bearer staff-elsewhere" ? json(404, {}) : json(401, {});
  }
  if (path.startsWith("/events/public-infos"))
    return path.includes("path=draft") ? json(404, {}) : json(200, publicInfos);
  if (path === "/auth/anonymous-login") return json(201, { access_token: "good", refresh_token: "r1" });
  if (path === "/auth/token/refresh") {
    const { refresh_token } = JSON.parse(String(init.body));
    return refresh_token === "r1" ? json(200, { access_token: "good", refresh_token: "r2" }) : json(401, {});
  }
  return isAuthorised(init) ? json(200, []) : json(401, {});
}

/** A request to `url` (`/tickets/[preview/]<path>/…`) with these tokens in its session. */
async function officeArgs(url: string, tokens?: { accessToken: string; refreshToken: string }, forTesting = false) {
  const segments = new URL(url).pathname.split("/");
  const path = (segments[2] === "preview" ? segments[3] : segments[2]) ?? "";
  const session = await sessionStorage.getSession();
  if (tokens) session.set("logins", { [loginKey(1, forTesting)]: tokens });
  if (tokens && forTesting) session.set("previews", { [path]: 1 });
  const request = new Request(url, { headers: { Cookie: await sessionStorage.commitSession(session) } });
  return { request, params: { path }, context: { apiFetch } };
}

async function openOffice(
  url: string,
  tokens?: { accessToken: string; refreshToken: string },
  tokensAreForTesting = url.includes("/preview/"),
) {
  return TicketOffice.open(await officeArgs(url, tokens, tokensAreForTesting));
}

const thrown = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as Response,
  );

describe("ticket-office login guard", () => {
  it("sends a visitor without a login to the login page, coming back afterwards", async () => {
    const office = await openOffice("http://localhost/tickets/demo/checkout/payment-method");
    const response = await thrown(office.requireLoginApi());
    expect(response?.status).toBe(302);
    expect(response?.headers.get("Location")).toBe(
      "/tickets/demo/login?nextUrl=%2Ftickets%2Fdemo%2Fcheckout%2Fpayment-method",
    );
  });

  it("keeps the renewed tokens in the session cookie", async () => {
    const office = await openOffice("http://localhost/tickets/demo/buy", { accessToken: "old", refreshToken: "r1" });
    await (await office.requireLoginApi()).get("/frontend/baskets");
    const cookie = (await office.headers()).get("Set-Cookie");
    const session = await sessionStorage.getSession(cookie);
    expect(session.get("logins")?.[loginKey(1, false)]).toEqual({ accessToken: "good", refreshToken: "r2" });
  });

  it("drops a login whose refresh token is refused and sends the visitor to log in again", async () => {
    const office = await openOffice("http://localhost/tickets/demo/completion", {
      accessToken: "old",
      refreshToken: "bad",
    });
    const response = await thrown((await office.requireLoginApi()).get("/frontend/baskets"));
    expect(response?.headers.get("Location")).toBe("/tickets/demo/login?nextUrl=%2Ftickets%2Fdemo%2Fcompletion");
    const session = await sessionStorage.getSession(response?.headers.get("Set-Cookie"));
    expect(session.get("logins")).toEqual({});
  });

  it("keeps the logins of the public office and its preview apart", async () => {
    const liveTokens = { accessToken: "good", refreshToken: "r1" };
    expect((await openOffice("http://localhost/tickets/demo/buy", liveTokens, false)).isLoggedIn).toBe(true);
    expect((await openOffice("http://localhost/tickets/preview/demo/buy", liveTokens, false)).isLoggedIn).toBe(false);
  });
});

describe("preview of an event (a draft too)", () => {
  it("knows nothing of a draft before its staff signs in: every page goes to the staff sign-in", async () => {
    const args = await officeArgs("http://localhost/tickets/preview/draft/checkout/forms");
    expect(await TicketOffice.enter(args)).toBeInstanceOf(PreviewSignIn);
    const response = await thrown(TicketOffice.open(args));
    expect(response?.headers.get("Location")).toBe(
      "/tickets/preview/draft/login?nextUrl=%2Ftickets%2Fpreview%2Fdraft%2Fcheckout%2Fforms",
    );
  });

  it("shows a public event's preview before the sign-in, as its live office does, but asks for it to buy", async () => {
    const office = await openOffice("http://localhost/tickets/preview/demo/checkout/forms");
    expect(office.event.id).toBe(1);
    expect((await thrown(office.requireLoginApi()))?.headers.get("Location")).toBe(
      "/tickets/preview/demo/login?nextUrl=%2Ftickets%2Fpreview%2Fdemo%2Fcheckout%2Fforms",
    );
  });

  it("reads a draft with the testing login of its staff, renewing its tokens", async () => {
    const office = await openOffice("http://localhost/tickets/preview/draft/buy", {
      accessToken: "old",
      refreshToken: "r1",
    });
    expect(office.event.id).toBe(1);
    expect(office.isLoggedIn).toBe(true);
    const session = await sessionStorage.getSession((await office.headers()).get("Set-Cookie"));
    expect(session.get("logins")?.[loginKey(1, true)]).toEqual({ accessToken: "good", refreshToken: "r2" });
  });

  it("opens for staff of the event's unit only, and keeps the testing login of the path's event", async () => {
    const outsider = await TicketOffice.enter(await officeArgs("http://localhost/tickets/preview/draft/login"));
    expect(await outsider.signInToPreview("staff-elsewhere")).toBe(false);
    expect((await outsider.headers()).get("Set-Cookie")).toBeNull();
    const staff = await TicketOffice.enter(await officeArgs("http://localhost/tickets/preview/draft/login"));
    expect(await staff.signInToPreview("good")).toBe(true);
    const session = await sessionStorage.getSession((await staff.headers()).get("Set-Cookie"));
    expect(session.get("previews")).toEqual({ draft: 1 });
    expect(session.get("logins")?.[loginKey(1, true)]).toEqual({ accessToken: "good", refreshToken: "r1" });
  });
});

describe("staff sign-in to a preview (docs/decisions/0033)", () => {
  it("hands the browser's device cookies to the API's sign-in, and the API's new one back, and no other cookie", async () => {
    const sent: (string | null)[] = [];
    const signInApi = async (path: string, init: RequestInit = {}) => {
      if (path !== "/auth/login") return apiFetch(path, init);
      sent.push(new Headers(init.headers).get("Cookie"));
      const headers = new Headers({ "Content-Type": "application/json" });
      headers.append(
        "Set-Cookie",
        "device_0a1b=d1.new; Max-Age=15552000; Path=/tickets/preview; HttpOnly; SameSite=Strict",
      );
      headers.append("Set-Cookie", "tracking=1; Path=/");
      return new Response(JSON.stringify({ access_token: "good", refresh_token: "r1" }), { status: 200, headers });
    };
    const args = await officeArgs("http://localhost/tickets/preview/draft/login");
    const cookie = `${args.request.headers.get("Cookie")}; device_0a1b=d1.old; device_9f8e=d1.colleague; other=2`;
    const request = new Request(args.request.url, { headers: { Cookie: cookie } });
    const staff = await TicketOffice.enter({ ...args, request, context: { apiFetch: signInApi } });
    expect(await staff.signInStaff("staff@example.org", "a-password-2026!")).toBe("good");
    expect(sent).toEqual(["device_0a1b=d1.old; device_9f8e=d1.colleague"]);
    const setCookies = (await staff.headers()).getSetCookie();
    expect(setCookies).toContain(
      "device_0a1b=d1.new; Max-Age=15552000; Path=/tickets/preview; HttpOnly; SameSite=Strict",
    );
    expect(setCookies.filter((line) => line.startsWith("tracking="))).toEqual([]);
  });

  it("sends no Cookie header to the API when the browser has no device cookie", async () => {
    const sent: (string | null)[] = [];
    const signInApi = async (path: string, init: RequestInit = {}) => {
      if (path !== "/auth/login") return apiFetch(path, init);
      sent.push(new Headers(init.headers).get("Cookie"));
      return json(200, { access_token: "good", refresh_token: "r1" });
    };
    const args = await officeArgs("http://localhost/tickets/preview/draft/login");
    const staff = await TicketOffice.enter({ ...args, context: { apiFetch: signInApi } });
    await staff.signInStaff("staff@example.org", "a-password-2026!");
    expect(sent).toEqual([null]);
    expect((await staff.headers()).getSetCookie()).toEqual([]);
  });
});

describe("a live office's event for its layout", () => {
  it("is read once per request, shared with the page's loader, and is the 404 page for a draft's live path", async () => {
    const calls: string[] = [];
    const counting = (path: string, init?: RequestInit) => {
      calls.push(path);
      return apiFetch(path, init);
    };
    // A tampered session cookie: the live event is read all the same, without it.
    const request = new Request("http://localhost/tickets/demo/buy", { headers: { Cookie: "__ticket_office=x.y" } });
    const args = { request, params: { path: "demo" }, context: { apiFetch: counting } };
    const live = await TicketOffice.liveEvent(args);
    expect(live?.event.id).toBe(1);
    expect(live?.location).toEqual({ path: "demo", testing: false, base: "/tickets/demo" });
    expect((await TicketOffice.open(args)).event.id).toBe(1);
    expect(calls.filter((path) => path.startsWith("/events/public-infos"))).toHaveLength(1);

    const draft = await thrown(TicketOffice.liveEvent(await officeArgs("http://localhost/tickets/draft")));
    expect((draft as { init?: ResponseInit } | null)?.init?.status).toBe(404);
  });

  it("is left to `enter` for a preview", async () => {
    expect(await TicketOffice.liveEvent(await officeArgs("http://localhost/tickets/preview/demo"))).toBeNull();
  });
});

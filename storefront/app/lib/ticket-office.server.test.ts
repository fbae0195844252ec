import { describe, expect, it } from "vitest";
import { loginKey, sessionStorage } from "./session.server";
import { TicketOffice } from "./ticket-office.server";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const publicInfos = { id: 1, registration_module_id: 1, frontend_path: "demo", access_methods: ["anonymous"] };

/** An API where only `good` is a valid access token and `r1` a valid refresh token. */
async function apiFetch(path: string, init: RequestInit = {}) {
  if (path.startsWith("/events/public-infos")) return json(200, publicInfos);
  if (path === "/auth/token/refresh") {
    const { refresh_token } = JSON.parse(String(init.body));
    return refresh_token === "r1" ? json(200, { access_token: "good", refresh_token: "r2" }) : json(401, {});
  }
  return new Headers(init.headers).get("Authorization") === "Bearer good" ? json(200, []) : json(401, {});
}

async function openOffice(
  url: string,
  tokens?: { accessToken: string; refreshToken: string },
  tokensAreForTesting = url.includes("/preview/"),
) {
  const session = await sessionStorage.getSession();
  if (tokens) session.set("logins", { [loginKey(1, tokensAreForTesting)]: tokens });
  const request = new Request(url, { headers: { Cookie: await sessionStorage.commitSession(session) } });
  return TicketOffice.open({ request, params: { path: "demo" }, context: { apiFetch } });
}

const thrown = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as Response,
  );

describe("ticket-office login guard", () => {
  it("sends a visitor without a login to the login page, coming back afterwards, in testing mode too", async () => {
    const office = await openOffice("http://localhost/tickets/preview/demo/checkout/payment-method");
    const response = await thrown(office.requireLoginApi());
    expect(response?.status).toBe(302);
    expect(response?.headers.get("Location")).toBe(
      "/tickets/preview/demo/login?nextUrl=%2Ftickets%2Fpreview%2Fdemo%2Fcheckout%2Fpayment-method",
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

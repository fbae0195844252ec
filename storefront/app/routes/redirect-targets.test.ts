// Finding 2 of issue 10: every route that redirects to a target taken from the request follows it only in its
// normalised form, and only when that stays on the site: the table of off-site targets through each route.
import { OFF_SITE_TARGETS } from "@ticketing/shared/site-path.fixtures";
import { describe, expect, it } from "vitest";
import { loginKey, sessionStorage } from "#app/lib/session.server.ts";
import { action as languageAction } from "#app/routes/language/route.ts";
import { action as loginAction, loader as loginLoader } from "#app/routes/tickets/$path/login/route.tsx";
import { loader as verifyLoader } from "#app/routes/tickets/$path/login/verify/$loginPk/$token/route.tsx";

const BUY = "/tickets/demo/buy";
const PREVIEW_BUY = "/tickets/preview/demo/buy";
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const publicInfos = {
  id: 1,
  registration_module_id: 4,
  frontend_path: "demo",
  access_methods: ["anonymous", "trusted_email"],
};
const tokens = { access_token: "a1", refresh_token: "r1", login: { id: 9, event_id: 1, testing: false } };

/**
 * An API that accepts every login, and records the bodies it was sent by path. A draft's infos are only given to
 * its staff (testing=true), as the API does.
 */
function fakeApi({ isDraft = false } = {}) {
  const sent: Record<string, Record<string, unknown>> = {};
  const apiFetch = async (path: string, init: RequestInit = {}) => {
    if (path.startsWith("/events/public-infos"))
      return isDraft && !path.includes("testing=true") ? json(404, { errors: ["Not found"] }) : json(200, publicInfos);
    sent[path] = JSON.parse(String(init.body));
    return path === "/auth/trusted-email-login" ? json(201, { detail: "sent" }) : json(200, tokens);
  };
  return { context: { apiFetch }, sent };
}

async function loggedInCookie() {
  const session = await sessionStorage.getSession();
  session.set("logins", { [loginKey(1, false)]: { accessToken: "a1", refreshToken: "r1" } });
  return sessionStorage.commitSession(session);
}

const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  new Request(url, { method: "POST", body: new URLSearchParams(fields), headers });

/** The redirect a loader or action answered, whether it returned or threw it. */
const location = (result: Promise<unknown>) =>
  result.then(
    (response) => (response as Response).headers.get("Location"),
    (error: unknown) => (error as Response).headers.get("Location"),
  );

describe.each(OFF_SITE_TARGETS)("a redirect target that leaves the site: %s", (_, target) => {
  const query = new URLSearchParams({ nextUrl: target });

  it("GET /tickets/demo/login, signed in: goes to the basket", async () => {
    const { context } = fakeApi();
    const request = new Request(`http://localhost/tickets/demo/login?${query}`, {
      headers: { Cookie: await loggedInCookie() },
    });
    expect(await location(loginLoader({ request, params: { path: "demo" }, context } as never))).toBe(BUY);
  });

  it("GET /tickets/demo/login, signed out: the form carries the basket as its target", async () => {
    const { context } = fakeApi();
    const request = new Request(`http://localhost/tickets/demo/login?${query}`);
    const page = (await loginLoader({ request, params: { path: "demo" }, context } as never)) as { nextUrl: string };
    expect(page.nextUrl).toBe(BUY);
  });

  it("POST /tickets/demo/login (anonymous): goes to the basket", async () => {
    const { context } = fakeApi();
    const request = post("http://localhost/tickets/demo/login", { nextUrl: target });
    expect(await location(loginAction({ request, params: { path: "demo" }, context } as never))).toBe(BUY);
  });

  it("POST /tickets/demo/login (trusted email): the API is asked for a link back to the basket", async () => {
    const { context, sent } = fakeApi();
    const request = post("http://localhost/tickets/demo/login", {
      intent: "trustedEmail",
      email: "buyer@example.org",
      nextUrl: target,
    });
    const to = await location(loginAction({ request, params: { path: "demo" }, context } as never));
    expect(sent["/auth/trusted-email-login"]?.next_url).toBe(BUY);
    expect(to).toBe(`/tickets/demo/login?${new URLSearchParams({ emailSent: "1", nextUrl: BUY })}`);
  });

  it.each([
    ["a public event", false],
    ["a draft", true],
  ])("POST /tickets/preview/demo/login (staff sign-in, %s): goes to the preview's basket", async (_, isDraft) => {
    const { context } = fakeApi({ isDraft });
    const request = post("http://localhost/tickets/preview/demo/login", {
      email: "organiser@example.org",
      password: "secret",
      nextUrl: target,
    });
    expect(await location(loginAction({ request, params: { path: "demo" }, context } as never))).toBe(PREVIEW_BUY);
  });

  it("GET /tickets/preview/demo/login of a draft, signed out: the staff form carries the preview's basket", async () => {
    const { context } = fakeApi({ isDraft: true });
    const request = new Request(`http://localhost/tickets/preview/demo/login?${query}`);
    const page = (await loginLoader({ request, params: { path: "demo" }, context } as never)) as { nextUrl: string };
    expect(page.nextUrl).toBe(PREVIEW_BUY);
  });

  it("GET /tickets/demo/login/verify/…: the emailed link goes to the basket", async () => {
    const { context } = fakeApi();
    const request = new Request(`http://localhost/tickets/demo/login/verify/9/good?${query}`);
    const params = { path: "demo", loginPk: "9", token: "good" };
    expect(await location(verifyLoader({ request, params, context } as never))).toBe(BUY);
  });

  it("POST /language: goes to the home page", async () => {
    const request = post("http://localhost/language", { lng: "fr", redirectTo: target });
    expect(await location(languageAction({ request, params: {}, context: {} } as never))).toBe("/");
  });
});

describe("a redirect target of this site", () => {
  it("is followed in its normalised form", async () => {
    const request = post("http://localhost/language", { lng: "fr", redirectTo: "/tickets/demo/../demo/buy?x=1" });
    expect(await location(languageAction({ request, params: {}, context: {} } as never))).toBe("/tickets/demo/buy?x=1");
    const { context } = fakeApi();
    const login = new Request("http://localhost/tickets/demo/login?nextUrl=%2Ftickets%2Fdemo%2F.%2Fcompletion", {
      headers: { Cookie: await loggedInCookie() },
    });
    expect(await location(loginLoader({ request: login, params: { path: "demo" }, context } as never))).toBe(
      "/tickets/demo/completion",
    );
  });
});

// The page an offer mail links to (issue 31): it reads the offer with the mail's code and does nothing more on a GET
// (mail scanners follow links); Buy now opens the offer, signs the browser in as the entry's login and goes on to
// the checkout; Decline hands the offer on, and the page then says so; a lapsed or closed offer says why.
import { describe, expect, it } from "vitest";
import { loginKey, sessionStorage } from "#app/lib/session.server.ts";
import { GOOD_CODE, listApi, wireOffer } from "#app/lib/waiting-list.fixtures.ts";
import { answerOf, visit } from "#app/lib/waiting-room.fixtures.ts";
import { action, loader } from "#app/routes/tickets/$path/waiting-list/offers/$id/route.tsx";

const OFFER = "/tickets/demo/waiting-list/offers/40";
const LINK = `${OFFER}?${new URLSearchParams({ code: GOOD_CODE })}`;

async function load(context: ReturnType<typeof listApi>, url = LINK, id = "40") {
  const request = await visit(url, { signedIn: false });
  return answerOf(loader({ request, params: { path: "demo", id }, context } as never));
}

async function choose(context: ReturnType<typeof listApi>, intent: string, code = GOOD_CODE, url = LINK) {
  const request = await visit(url, { method: "POST", form: { intent, code }, signedIn: false });
  return answerOf(action({ request, params: { path: "demo", id: "40" }, context } as never));
}

/** The ticket-office login a response's session cookie keeps for event 1, live. */
async function keptLogin(headers: Headers) {
  const cookie = headers.getSetCookie().find((value) => value.startsWith("__ticket_office="));
  const session = await sessionStorage.getSession(cookie?.split(";")[0]);
  return session.get("logins")?.[loginKey(1, false)] ?? null;
}

describe("the offer page", () => {
  it("shows the offer read with the mail's code, opening nothing, to a browser not signed in", async () => {
    const api = listApi();
    const page = await load(api);
    expect(page).toMatchObject({
      status: 200,
      data: { offer: { id: 40, title: "Concert", offeredQuantity: 2, state: "offered" }, code: GOOD_CODE, errors: [] },
    });
    expect(api.calls.filter((call) => call.startsWith("POST"))).toEqual([]);
  });

  it("says a link without a code, or with a wrong one, is not valid", async () => {
    const api = listApi();
    expect(await load(api, OFFER)).toMatchObject({
      status: 404,
      data: { offer: null, errors: ["This offer link is not valid."] },
    });
    expect(api.calls.filter((call) => call.includes("offers"))).toEqual([]);
    const wrong = await load(api, `${OFFER}?code=${"0".repeat(32)}`);
    expect(wrong).toMatchObject({ status: 404, data: { offer: null, errors: ["This offer link is not valid"] } });
    expect((await load(api, "/tickets/demo/waiting-list/offers/x", "x")).status).toBe(404);
  });

  it("shows a lapsed, a declined and a bought offer as they are", async () => {
    for (const state of ["expired", "left", "bought"]) {
      expect(await load(listApi({ offer: wireOffer({ state }) }))).toMatchObject({ data: { offer: { state } } });
    }
  });

  it("Buy now: opens the offer, signs the browser in as the entry's login, and goes on to the checkout", async () => {
    const api = listApi();
    const answer = await choose(api, "open");
    expect(answer).toMatchObject({ status: 302, location: "/tickets/demo/checkout/forms" });
    expect(api.bodies["POST /frontend/waiting-list/offers/40/open"]).toEqual({ code: GOOD_CODE });
    expect(await keptLogin(answer.headers)).toEqual({ accessToken: "offer-access", refreshToken: "offer-refresh" });
  });

  it("Decline: hands the offer on and comes back to the offer's page, which then says so", async () => {
    const api = listApi();
    const answer = await choose(api, "decline");
    expect(answer).toMatchObject({ status: 302, location: LINK });
    expect(api.bodies["POST /frontend/waiting-list/offers/40/decline"]).toEqual({ code: GOOD_CODE });
    expect(api.calls).not.toContain("POST /frontend/waiting-list/offers/40/open");
  });

  it("shows why an offer can no longer be opened, keeping the browser's session as it was", async () => {
    const errors = ["This offer has lapsed: the tickets went to the next person on the waiting list"];
    const answer = await choose(listApi({ opened: { status: 409, errors } }), "open");
    expect(answer).toMatchObject({ status: 409, data: { errors } });
    expect(await keptLogin(answer.headers)).toBeNull();
  });

  it("keeps a preview's offer in the preview", async () => {
    const api = listApi();
    const url = `/tickets/preview/demo/waiting-list/offers/40?code=${GOOD_CODE}`;
    const request = await visit(url, { method: "POST", form: { intent: "open", code: GOOD_CODE }, testing: true });
    const answer = await answerOf(action({ request, params: { path: "demo", id: "40" }, context: api } as never));
    expect(answer).toMatchObject({ status: 302, location: "/tickets/preview/demo/checkout/forms" });
  });
});

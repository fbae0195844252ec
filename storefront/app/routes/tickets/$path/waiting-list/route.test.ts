// The buyer's waiting-list page (issue 31), JavaScript off: their entries, the join form for a sold-out article once
// signed in with a proved email (and how to sign in with one otherwise), Leave, and the API's refusals shown beside
// the form.
import { describe, expect, it } from "vitest";
import { listApi, ON_SALE_ID, SOLD_OUT_ID, wireEntry } from "#app/lib/waiting-list.fixtures.ts";
import { answerOf, visit } from "#app/lib/waiting-room.fixtures.ts";
import { action, loader } from "#app/routes/tickets/$path/waiting-list/route.tsx";

const LIST = "/tickets/demo/waiting-list";
const JOIN = `${LIST}?article=${SOLD_OUT_ID}`;

async function load(context: ReturnType<typeof listApi>, url = JOIN, options?: Parameters<typeof visit>[1]) {
  return answerOf(loader({ request: await visit(url, options), params: { path: "demo" }, context } as never));
}

async function post(context: ReturnType<typeof listApi>, form: Record<string, string>, url = JOIN) {
  const request = await visit(url, { method: "POST", form });
  return answerOf(action({ request, params: { path: "demo" }, context } as never));
}

describe("the waiting list's page", () => {
  it("shows a buyer signed in by email their entries and the join form for a sold-out article", async () => {
    const api = listApi();
    const page = await load(api);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({
      isSignedIn: true,
      hasEmail: true,
      isAccepting: true,
      article: { nodeId: SOLD_OUT_ID, title: "Concert", isSoldOut: true },
      entries: [{ id: 40, title: "Concert", position: 3, state: "waiting" }],
      // The event's cap per buyer (4) bounds the quantity, below the basket's maximum (10).
      quantityMax: 4,
    });
    expect(api.calls).toContain("GET /frontend/waiting-list");
  });

  it("says an article still on sale is to be bought, and an unknown one cannot be found", async () => {
    expect((await load(listApi(), `${LIST}?article=${ON_SALE_ID}`)).data).toMatchObject({
      article: { isSoldOut: false },
    });
    expect((await load(listApi(), `${LIST}?article=999`)).data).toMatchObject({
      article: null,
      isArticleMissing: true,
    });
    expect((await load(listApi(), `${LIST}?article=abc`)).data).toMatchObject({ isArticleMissing: true });
  });

  it("tells a guest that joining needs an email address, offering the sign-in link from the page", async () => {
    const page = await load(listApi({ login: { method: "anonymous", email: null } }));
    expect(page.data).toMatchObject({ isSignedIn: true, hasEmail: false, offersEmailLink: true });
  });

  it("shows a visitor not signed in the login page, coming back to this article", async () => {
    const api = listApi();
    const page = await load(api, JOIN, { signedIn: false });
    expect(page.data).toMatchObject({
      isSignedIn: false,
      entries: [],
      loginHref: `/tickets/demo/login?${new URLSearchParams({ nextUrl: JOIN })}`,
    });
    expect(api.calls).not.toContain("GET /frontend/waiting-list");
  });

  it("joins with the quantity chosen, in this mode, and shows the entries", async () => {
    const api = listApi();
    const answer = await post(api, { intent: "join", nodeId: String(SOLD_OUT_ID), quantity: "2" });
    expect(answer).toMatchObject({ status: 302, location: LIST });
    expect(api.bodies["POST /frontend/waiting-list"]).toEqual({
      event_id: 1,
      node_id: SOLD_OUT_ID,
      quantity: 2,
      testing: false,
    });
  });

  it("refuses a quantity above the event's cap without asking the API", async () => {
    const api = listApi();
    const answer = await post(api, { intent: "join", nodeId: String(SOLD_OUT_ID), quantity: "5" });
    expect(answer).toMatchObject({
      status: 400,
      data: { target: "join", errors: ["Enter a whole number from 1 to 4"] },
    });
    expect(api.calls).not.toContain("POST /frontend/waiting-list");
  });

  it("shows the API's refusal beside the form (an email needed, already on the list)", async () => {
    const errors = ["Sign in with your email address to join the waiting list"];
    const answer = await post(listApi({ joined: { status: 409, errors } }), {
      intent: "join",
      nodeId: String(SOLD_OUT_ID),
      quantity: "1",
    });
    expect(answer).toMatchObject({ status: 409, data: { target: "join", errors } });
  });

  it("leaves an entry, and shows why when it can no longer be left", async () => {
    const api = listApi();
    expect(await post(api, { intent: "leave", entryId: "40" }, LIST)).toMatchObject({ status: 302, location: LIST });
    expect(api.calls).toContain("DELETE /frontend/waiting-list/40");
    const errors = ["This waiting list entry is no longer waiting"];
    const refused = await post(listApi({ left: { status: 409, errors } }), { intent: "leave", entryId: "40" }, LIST);
    expect(refused).toMatchObject({ status: 409, data: { target: "leave", entryId: 40, errors } });
  });

  it("sends a guest a sign-in link that comes back to the same article, and says it was sent", async () => {
    const api = listApi({ login: { method: "anonymous", email: null } });
    const answer = await post(api, { intent: "email", email: "ada@example.org" });
    expect(answer).toMatchObject({ status: 302, location: `${JOIN}&emailSent=1` });
    expect(api.bodies["POST /auth/trusted-email-login"]).toEqual({
      active_module_id: 4,
      is_testing: false,
      email: "ada@example.org",
      next_url: JOIN,
    });
    const invalid = await post(api, { intent: "email", email: "not an email" });
    expect(invalid).toMatchObject({ status: 400, data: { target: "email", email: "not an email" } });
  });

  it("keeps the preview's own list: joins in testing mode, links under the preview", async () => {
    const api = listApi();
    const url = `/tickets/preview/demo/waiting-list?article=${SOLD_OUT_ID}`;
    const request = await visit(url, { method: "POST", form: { intent: "join", nodeId: "5" }, testing: true });
    const answer = await answerOf(action({ request, params: { path: "demo" }, context: api } as never));
    expect(answer).toMatchObject({ status: 302, location: "/tickets/preview/demo/waiting-list" });
    expect(api.bodies["POST /frontend/waiting-list"]).toMatchObject({ quantity: 1, testing: true });
  });

  it("tells the state of each entry the buyer has, an offer's basket among them", async () => {
    const entries = [
      wireEntry(),
      wireEntry({
        id: 41,
        state: "offered",
        position: null,
        offered_quantity: 2,
        offer_expires_at: "2099-01-01T00:00:00.000Z",
        basket_id: 70,
      }),
    ];
    const page = await load(listApi({ entries }), LIST);
    expect(page.data).toMatchObject({ article: null, entries: [{ id: 40 }, { id: 41, basketId: 70 }] });
  });
});

// The waiting room's page (issue 30): a newcomer takes a place (one per device: the browser's device cookie goes to
// the API and the API's comes back), the page reloads itself while the place can move on, the buyer whose turn it is
// goes on to the buy page, and a lapsed buyer joins again only by asking.
import { describe, expect, it } from "vitest";
import { answerOf, DEVICE_SET_COOKIE, roomApi, visit, wirePlace } from "#app/lib/waiting-room.fixtures.ts";
import { action, headers, loader } from "#app/routes/tickets/$path/waiting-room/route.tsx";

const ROOM = "/tickets/demo/waiting-room";

async function load(context: ReturnType<typeof roomApi>, options?: Parameters<typeof visit>[1]) {
  return answerOf(loader({ request: await visit(ROOM, options), params: { path: "demo" }, context } as never));
}

async function joinAgain(context: ReturnType<typeof roomApi>) {
  const request = await visit(ROOM, { method: "POST", form: {} });
  return answerOf(action({ request, params: { path: "demo" }, context } as never));
}

describe("the waiting room's page", () => {
  it("gives a newcomer a place, forwarding only the device cookie both ways, and reloads itself", async () => {
    const api = roomApi({ place: null });
    const page = await load(api);
    expect(api.calls.filter((call) => call.includes("waiting-room"))).toEqual([
      "GET /frontend/waiting-room",
      "POST /frontend/waiting-room",
    ]);
    expect(api.sentCookies).toEqual(["device_ab12=v0"]);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ place: { state: "waiting", position: 2, ahead: 1 }, errors: [] });
    expect(page.headers.get("Refresh")).toBe("20");
    expect(page.headers.getSetCookie()).toContain(DEVICE_SET_COOKIE);
  });

  it("reads a kept place without taking another, and reloads itself before the opening too", async () => {
    const api = roomApi({ place: wirePlace({ state: "before_opening", position: null, ahead: null }) });
    const page = await load(api);
    expect(api.calls).not.toContain("POST /frontend/waiting-room");
    expect(page.data).toMatchObject({ place: { state: "before_opening", opensAt: "2026-11-28T10:00:00.000Z" } });
    expect(page.headers.get("Refresh")).toBe("20");
  });

  it("sends an admitted buyer, and everyone once the room is ended, on to the buy page", async () => {
    for (const state of ["admitted", "open"]) {
      const page = await load(roomApi({ place: wirePlace({ state }) }));
      expect(page).toMatchObject({ status: 302, location: "/tickets/demo/buy" });
    }
  });

  it("shows a lapsed buyer their turn passed, without reloading and without a new place", async () => {
    const api = roomApi({ place: wirePlace({ state: "lapsed", position: null, ahead: null }) });
    const page = await load(api);
    expect(page.data).toMatchObject({ place: { state: "lapsed" } });
    expect(page.headers.get("Refresh")).toBeNull();
    expect(api.calls).not.toContain("POST /frontend/waiting-room");
  });

  it("joins a lapsed buyer again when they ask, back to the room with the device cookie", async () => {
    const api = roomApi({ place: wirePlace({ state: "lapsed" }), joined: wirePlace({ position: 40 }) });
    const answer = await joinAgain(api);
    expect(answer).toMatchObject({ status: 302, location: ROOM });
    expect(api.calls).toContain("POST /frontend/waiting-room");
    expect(answer.headers.getSetCookie()).toContain(DEVICE_SET_COOKIE);
  });

  it("says why a place is refused (one per device), without reloading", async () => {
    const errors = ["This browser already has a place in this queue"];
    const page = await load(roomApi({ place: null, joined: { status: 409, errors } }));
    expect(page).toMatchObject({ status: 409, data: { place: null, errors } });
    expect(page.headers.get("Refresh")).toBeNull();
    const again = await joinAgain(roomApi({ place: null, joined: { status: 429, errors } }));
    expect(again).toMatchObject({ status: 429, data: { errors } });
  });

  it("sends a visitor not signed in to the login page, coming back here", async () => {
    const page = await load(roomApi({}), { signedIn: false });
    expect(page.location).toBe(`/tickets/demo/login?${new URLSearchParams({ nextUrl: ROOM })}`);
  });

  it("is the buy page for an event without a room, asking the API nothing about rooms", async () => {
    const api = roomApi({ hasWaitingRoom: false });
    expect(await load(api)).toMatchObject({ status: 302, location: "/tickets/demo/buy" });
    expect(api.calls.filter((call) => call.includes("waiting-room"))).toEqual([]);
  });

  it("hands its Refresh on to the document (a loader's own headers stay the loader's), and nothing when lapsed", () => {
    const pass = (loaderHeaders: Headers) => new Headers(headers({ loaderHeaders } as never));
    expect(pass(new Headers({ Refresh: "20", "X-Other": "1" })).get("Refresh")).toBe("20");
    expect(pass(new Headers({ Refresh: "20", "X-Other": "1" })).get("X-Other")).toBeNull();
    expect(pass(new Headers()).get("Refresh")).toBeNull();
  });
});

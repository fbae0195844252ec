// The buy page behind a waiting room (issue 30): only a buyer whose turn it is chooses tickets; the others, and a
// buyer whose add the API refuses for want of a turn, go to the room. An event without a room costs no call more.
import { describe, expect, it } from "vitest";
import { answerOf, roomApi, visit, wirePlace } from "#app/lib/waiting-room.fixtures.ts";
import { action, loader } from "#app/routes/tickets/$path/buy/route.tsx";

const ROOM = "/tickets/demo/waiting-room";

async function load(context: ReturnType<typeof roomApi>, { testing = false } = {}) {
  const request = await visit(testing ? "/tickets/preview/demo/buy" : "/tickets/demo/buy", { testing });
  return answerOf(loader({ request, params: { path: "demo" }, context } as never));
}

async function add(context: ReturnType<typeof roomApi>) {
  const request = await visit("/tickets/demo/buy", { method: "POST", form: { nodeId: "5", quantity: "1" } });
  return answerOf(action({ request, params: { path: "demo" }, context } as never));
}

describe("the buy page behind a waiting room", () => {
  it("sends a buyer without a place, or still waiting, to the room", async () => {
    for (const place of [null, wirePlace(), wirePlace({ state: "before_opening" }), wirePlace({ state: "lapsed" })]) {
      const api = roomApi({ place });
      expect(await load(api)).toMatchObject({ status: 302, location: ROOM });
      // Reading the place is all: the room takes one, when its page is shown.
      expect(api.calls).not.toContain("POST /frontend/waiting-room");
    }
  });

  it("lets an admitted buyer choose, saying until when their turn lasts", async () => {
    const admittedUntil = "2026-11-28T10:12:00.000Z";
    const page = await load(roomApi({ place: wirePlace({ state: "admitted", admitted_until: admittedUntil }) }));
    expect(page).toMatchObject({ status: 200, data: { turnUntil: admittedUntil } });
  });

  it("lets everyone choose once the room has ended, with no turn to announce", async () => {
    const page = await load(roomApi({ place: wirePlace({ state: "open", admitted_until: null }) }));
    expect(page).toMatchObject({ status: 200, data: { turnUntil: null } });
  });

  it("asks nothing about rooms for an event without one, nor for a preview", async () => {
    const api = roomApi({ hasWaitingRoom: false });
    expect(await load(api)).toMatchObject({ status: 200, data: { turnUntil: null } });
    expect(await add(api)).toMatchObject({ status: 302, location: "/tickets/demo/buy" });
    expect(api.calls.filter((call) => call.includes("waiting-room"))).toEqual([]);
    const preview = roomApi({ place: wirePlace() });
    expect(await load(preview, { testing: true })).toMatchObject({ status: 200 });
    expect(preview.calls.filter((call) => call.includes("waiting-room"))).toEqual([]);
  });

  it("sends a buyer whose add is refused for want of a turn to the room", async () => {
    const errors = ["Your turn to buy has passed: join the queue again"];
    const api = roomApi({ place: wirePlace({ state: "lapsed" }), addRefusal: { status: 409, errors } });
    expect(await add(api)).toMatchObject({ status: 302, location: ROOM });
  });

  it("shows other refusals to an admitted buyer beside the article", async () => {
    const errors = ["Sold out"];
    const api = roomApi({ place: wirePlace({ state: "admitted" }), addRefusal: { status: 409, errors } });
    expect(await add(api)).toMatchObject({ status: 409, data: { target: "article", nodeId: 5, errors } });
  });
});

// An event's waiting room over HTTP (docs/decisions/0037): the organiser switches it on, changes, opens, pauses,
// resumes and ends it; a buyer takes one place (per login, per browser, a few per address) and sees what it means;
// basket actions wait for the buyer's turn. Rooms opened a second ago at one buyer a minute: position 1 is admitted
// and position 2 is not for the length of a test, without a clock to move.
import { WAITING_ROOM_REFRESH_SECONDS } from "@ticketing/shared/constants";
import { describe, expect, it } from "vitest";
import { deviceCookieName, newDeviceCookie, TICKET_OFFICE_DEVICE } from "../lib/device-cookies.ts";
import { PLACES_PER_ADDRESS } from "../services/waiting-room/places.ts";
import {
  createOnSaleEvent,
  DRIVERS,
  FRENCH,
  loginAs,
  nextBuyerAddress,
  signedInUser,
  useTestContext,
} from "../test-support.ts";

const secondsFromNow = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const EMPTY = { places: 0, waiting: 0, admitted: 0, holding: 0, bought: 0, lapsed: 0 };

describe.each(DRIVERS)("the waiting room over HTTP (%s)", (driver) => {
  const ctx = useTestContext(driver);

  /** A public event, its organiser signed in, and its room when `opensAt` is given (one buyer a minute). */
  async function onSale(opensAt?: string, ratePerMinute = 1) {
    const sale = await createOnSaleEvent(ctx, { stock: 20 });
    const organiser = await loginAs(ctx, sale.email, sale.password);
    const room = (settings: Record<string, unknown> = {}) =>
      ctx.call("PUT", `/events/${sale.event.id}/waiting-room`, {
        token: organiser,
        body: { opens_at: opensAt, rate_per_minute: ratePerMinute, admission_minutes: 10, ...settings },
      });
    if (opensAt) expect((await room()).status).toBe(200);
    const act = (action: string, headers: Record<string, string> = {}) =>
      ctx.call("POST", `/events/${sale.event.id}/waiting-room/${action}`, { token: organiser, headers });
    return { ...sale, organiser, room, act };
  }

  /** A guest of the event's ticket office, signed in from an address of their own. */
  async function guest(moduleId: number, headers: Record<string, string> = {}) {
    const login = await ctx.call("POST", "/auth/anonymous-login", {
      headers: { "x-real-ip": nextBuyerAddress(), ...headers },
      body: { active_module_id: moduleId },
    });
    expect(login.status, JSON.stringify(login.body)).toBe(201);
    return login.body.access_token as string;
  }

  const join = (token: string, eventId: number, headers: Record<string, string> = {}, testing = false) =>
    ctx.call("POST", "/frontend/waiting-room", {
      token,
      headers: { "x-real-ip": nextBuyerAddress(), ...headers },
      body: { event_id: eventId, ...(testing ? { testing: true } : {}) },
    });
  const place = (token: string, eventId: number, testing = false) =>
    ctx.call("GET", `/frontend/waiting-room?event_id=${eventId}${testing ? "&testing=true" : ""}`, { token });

  /** A browser's ticket-office device cookie, as the product issues it. */
  const browser = () => {
    const secret = ctx.config.secretKey;
    return {
      cookie: `${deviceCookieName(secret, TICKET_OFFICE_DEVICE)}=${newDeviceCookie(secret, TICKET_OFFICE_DEVICE, new Date())}`,
    };
  };

  describe("the organiser's room", () => {
    it("is switched on with its counts by the organiser, and neither seen nor changed by a stranger", async () => {
      const sale = await onSale();
      const none = await ctx.call("GET", `/events/${sale.event.id}/waiting-room`, { token: sale.organiser });
      expect(none).toMatchObject({ status: 404, body: { errors: ["This event has no queue"] } });
      const frenchNone = await ctx.call("GET", `/events/${sale.event.id}/waiting-room`, {
        token: sale.organiser,
        headers: FRENCH,
      });
      expect(frenchNone.body.errors).toEqual(["Cet événement n'a pas de file d'attente"]);

      const opensAt = secondsFromNow(3600);
      const on = await sale.room({ opens_at: opensAt, rate_per_minute: 30 });
      expect(on.status, JSON.stringify(on.body)).toBe(200);
      expect(on.body).toMatchObject({
        event_id: sale.event.id,
        opens_at: opensAt,
        rate_per_minute: 30,
        admission_minutes: 10,
        status: "running",
        is_open: false,
        admitted_positions: 0,
        counts: EMPTY,
      });
      const read = await ctx.call("GET", `/events/${sale.event.id}/waiting-room`, { token: sale.organiser });
      expect(read.body).toEqual(on.body);

      const stranger = await signedInUser(ctx, "stranger");
      const settings = { opens_at: opensAt, rate_per_minute: 5000, admission_minutes: 10 };
      for (const [method, path] of [
        ["GET", "/waiting-room"],
        ["PUT", "/waiting-room"],
        ["POST", "/waiting-room/end"],
      ] as const) {
        const refused = await ctx.call(method, `/events/${sale.event.id}${path}`, {
          token: stranger.token,
          body: method === "PUT" ? settings : undefined,
        });
        expect([403, 404], `${method} ${path}`).toContain(refused.status);
      }
      const unchanged = await ctx.call("GET", `/events/${sale.event.id}/waiting-room`, { token: sale.organiser });
      expect(unchanged.body).toMatchObject({ rate_per_minute: 30, status: "running" });
    });

    it("moves its opening only before it: open now once, then neither open now nor a new opening (409)", async () => {
      const sale = await onSale(secondsFromNow(3600));
      const later = secondsFromNow(7200);
      expect((await sale.room({ opens_at: later })).body).toMatchObject({ opens_at: later, is_open: false });

      const opened = await sale.act("open-now");
      expect(opened.status).toBe(200);
      expect(opened.body.is_open).toBe(true);
      expect(opened.body.admitted_positions).toBe(1);
      const openedAt = opened.body.opens_at as string;
      expect(Date.parse(openedAt)).toBeLessThanOrEqual(Date.now());

      expect(await sale.act("open-now")).toMatchObject({
        status: 409,
        body: { errors: ["The queue has opened: its opening time can no longer change"] },
      });
      expect((await sale.act("open-now", FRENCH)).body.errors).toEqual([
        "La file d'attente est ouverte : son heure d'ouverture ne peut plus changer",
      ]);
      expect((await sale.room({ opens_at: secondsFromNow(600) })).status).toBe(409);
      // The opening unchanged, a new rate: accepted, from now on.
      const faster = await sale.room({ opens_at: openedAt, rate_per_minute: 2 });
      expect(faster).toMatchObject({ status: 200, body: { opens_at: openedAt, rate_per_minute: 2, is_open: true } });
    });

    it("pauses, resumes and ends, each answered with the room's status; an ended room is switched on anew", async () => {
      const sale = await onSale(secondsFromNow(-1));
      const first = await guest(sale.moduleId);
      const second = await guest(sale.moduleId);
      expect((await join(first, sale.event.id)).body.state).toBe("admitted");
      expect((await join(second, sale.event.id)).body.state).toBe("waiting");

      const paused = await sale.act("pause");
      expect(paused.body).toMatchObject({ status: "paused", admitted_positions: 1 });
      expect(paused.body.counts).toMatchObject({ places: 2, admitted: 1, waiting: 1 });
      expect((await place(second, sale.event.id)).body).toMatchObject({
        state: "paused",
        position: 2,
        estimated_wait_seconds: null,
      });
      expect((await sale.act("pause")).body.status).toBe("paused");

      expect((await sale.act("resume")).body.status).toBe("running");
      // Resuming lets nobody in ahead of the rate (1 a minute): the second still waits.
      expect((await place(second, sale.event.id)).body.state).toBe("waiting");

      expect((await sale.act("end")).body).toMatchObject({ status: "ended" });
      for (const action of ["pause", "resume", "open-now", "end"])
        expect(await sale.act(action), action).toMatchObject({
          status: 409,
          body: { errors: ["This queue has ended"] },
        });
      const anew = await sale.room({ opens_at: secondsFromNow(3600) });
      expect(anew.body).toMatchObject({ status: "running", is_open: false, counts: EMPTY });
    });
  });

  describe("a buyer's place", () => {
    it("is taken once (201) and then answered (200); none before it is taken (404)", async () => {
      const sale = await onSale(secondsFromNow(-1));
      const first = await guest(sale.moduleId);
      expect((await place(first, sale.event.id)).status).toBe(404);

      const taken = await join(first, sale.event.id);
      expect(taken.status).toBe(201);
      expect(taken.body).toMatchObject({
        event_id: sale.event.id,
        state: "admitted",
        position: 1,
        ahead: 0,
        estimated_wait_seconds: null,
        refresh_seconds: WAITING_ROOM_REFRESH_SECONDS,
      });
      expect(Date.parse(taken.body.admitted_until)).toBeGreaterThan(Date.now() + 9 * 60_000);
      const again = await join(first, sale.event.id);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(taken.body);
      expect((await place(first, sale.event.id)).body).toEqual(taken.body);

      const second = await guest(sale.moduleId);
      const waiting = await join(second, sale.event.id);
      expect(waiting.status).toBe(201);
      expect(waiting.body).toMatchObject({ state: "waiting", position: 2, ahead: 0, admitted_until: null });
      expect(waiting.body.estimated_wait_seconds).toBeGreaterThan(0);
      expect(waiting.body.estimated_wait_seconds).toBeLessThanOrEqual(60);

      const room = await ctx.call("GET", `/events/${sale.event.id}/waiting-room`, { token: sale.organiser });
      expect(room.body.counts).toEqual({ ...EMPTY, places: 2, admitted: 1, waiting: 1 });
    });

    it("has no position before the opening", async () => {
      const sale = await onSale(secondsFromNow(3600));
      const early = await join(await guest(sale.moduleId), sale.event.id);
      expect(early.status).toBe(201);
      expect(early.body).toMatchObject({ state: "before_opening", position: null, opens_at: expect.any(String) });
    });

    it("is one per browser: another login with the same device cookie is refused (409), another browser is not", async () => {
      const sale = await onSale(secondsFromNow(-1));
      const device = browser();
      expect((await join(await guest(sale.moduleId), sale.event.id, device)).status).toBe(201);
      const sameBrowser = await join(await guest(sale.moduleId), sale.event.id, device);
      expect(sameBrowser).toMatchObject({
        status: 409,
        body: { errors: ["This browser already has a place in this queue"] },
      });
      const french = await join(await guest(sale.moduleId), sale.event.id, { ...device, ...FRENCH });
      expect(french.body.errors).toEqual(["Ce navigateur a déjà une place dans cette file d'attente"]);
      expect((await join(await guest(sale.moduleId), sale.event.id, browser())).status).toBe(201);
    });

    it("gives a browser without a device cookie one with its place, and holds it to that place", async () => {
      const sale = await onSale(secondsFromNow(-1));
      const first = await join(await guest(sale.moduleId), sale.event.id, {});
      expect(first.status).toBe(201);
      const given = first.headers
        .getSetCookie()
        .find((cookie) => cookie.startsWith(`${deviceCookieName(ctx.config.secretKey, TICKET_OFFICE_DEVICE)}=`));
      expect(given).toBeDefined();
      const again = await join(await guest(sale.moduleId), sale.event.id, {
        cookie: (given as string).split(";")[0] as string,
      });
      expect(again.status).toBe(409);
    });

    it(`is at most ${PLACES_PER_ADDRESS} per address: the next from it is refused (409), another address's is not`, async () => {
      const sale = await onSale(secondsFromNow(-1));
      const household = { "x-real-ip": nextBuyerAddress() };
      for (let index = 0; index < PLACES_PER_ADDRESS; index++)
        expect((await join(await guest(sale.moduleId), sale.event.id, household)).status).toBe(201);
      const farm = await join(await guest(sale.moduleId), sale.event.id, household);
      expect(farm).toMatchObject({
        status: 409,
        body: { errors: ["Your network already has as many places in this queue as it may"] },
      });
      expect((await join(await guest(sale.moduleId), sale.event.id)).status).toBe(201);
      const room = await ctx.call("GET", `/events/${sale.event.id}/waiting-room`, { token: sale.organiser });
      expect(room.body.counts.places).toBe(PLACES_PER_ADDRESS + 1);
    });

    it("is not needed in a preview, nor once the room ended; the ticket office is told whether a room is on", async () => {
      const sale = await onSale();
      const infos = async () =>
        (await ctx.call("GET", `/events/public-infos?path=${sale.event.frontendPath}`)).body.has_waiting_room;
      expect(await infos()).toBe(false);
      await sale.room({ opens_at: secondsFromNow(3600) });
      expect(await infos()).toBe(true);

      const preview = await ctx.call("POST", "/auth/anonymous-login", {
        token: sale.organiser,
        body: { active_module_id: sale.moduleId, is_testing: true },
      });
      const staff = preview.body.access_token as string;
      const previewed = await join(staff, sale.event.id, {}, true);
      expect(previewed).toMatchObject({ status: 200, body: { state: "open", position: null } });
      expect((await place(staff, sale.event.id, true)).body.state).toBe("open");

      const buyer = await guest(sale.moduleId);
      expect((await join(buyer, sale.event.id)).body.state).toBe("before_opening");
      await sale.act("end");
      expect(await infos()).toBe(false);
      expect((await join(buyer, sale.event.id)).body).toMatchObject({ state: "open", position: null });
      expect((await place(buyer, sale.event.id)).body.state).toBe("open");
    });
  });

  describe("basket actions in a room", () => {
    it("wait for the buyer's turn; an admitted buyer adds and is then counted holding", async () => {
      const sale = await onSale(secondsFromNow(-1));
      const admitted = await guest(sale.moduleId);
      const next = await guest(sale.moduleId);
      expect((await join(admitted, sale.event.id)).body.state).toBe("admitted");
      expect((await join(next, sale.event.id)).body.state).toBe("waiting");
      const add = (token: string, headers: Record<string, string> = {}) =>
        ctx.call("POST", "/frontend/selected-nodes", {
          token,
          headers,
          body: { event_id: sale.event.id, node_id: sale.article.node.id },
        });

      expect(await add(next)).toMatchObject({
        status: 409,
        body: { errors: ["It is not your turn yet: wait in the queue for this event"] },
      });
      expect((await add(next, FRENCH)).body.errors).toEqual([
        "Ce n'est pas encore votre tour : patientez dans la file d'attente de cet événement",
      ]);
      const basket = await ctx.call("POST", "/frontend/baskets", { token: next, body: { event_id: sale.event.id } });
      expect(basket.status).toBe(409);
      const stranger = await guest(sale.moduleId);
      expect((await add(stranger)).status).toBe(409);

      expect((await add(admitted)).status).toBe(201);
      const room = await ctx.call("GET", `/events/${sale.event.id}/waiting-room`, { token: sale.organiser });
      expect(room.body.counts).toEqual({ ...EMPTY, places: 2, holding: 1, waiting: 1 });
      // Holding a basket, the admission lasts: no deadline any more.
      expect((await place(admitted, sale.event.id)).body).toMatchObject({ state: "admitted", admitted_until: null });
    });
  });
});

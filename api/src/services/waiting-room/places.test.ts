// Places in a waiting room, on a clock the test sets and draws from a seeded source: after the opening the order is
// the order of arrival; before it, a uniform shuffle; every place gets one position, none twice, none skipped; an
// admission lapses without a basket and lasts with one; a place per login, per browser, a few per address.
import { eq, run, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import { createOnSaleEvent, useTestContext } from "../../test-support.ts";
import { assertAdmitted, noteHeld } from "./admission.ts";
import { joinWaitingRoom, readWaitingRoomPlace } from "./buyer-places.ts";
import type { DrawSource } from "./places.ts";
import { actOnWaitingRoom, getWaitingRoom, setWaitingRoom } from "./rooms.ts";

const OPENING = new Date("2030-03-01T09:00:00.000Z");
const at = (ms: number) => new Date(OPENING.getTime() + ms);
const MINUTE = 60_000;
const SUPPORT = "support@example.org";

/** mulberry32: a small seeded generator, two of its outputs making a draw in [0, 2^48). */
function seededDraws(seed: number): DrawSource {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return () => Math.floor(next() * 2 ** 24) * 2 ** 24 + Math.floor(next() * 2 ** 24);
}

describe("places in a waiting room", () => {
  const ctx = useTestContext("better-sqlite3");

  /** An on-sale event with a room opening at OPENING, and `count` guest logins to it. */
  async function roomWithLogins(count: number, settings: { rate?: number; admissionMinutes?: number } = {}) {
    const sale = await createOnSaleEvent(ctx, { stock: 1000 });
    const user = await ctx.database.db.select().from(schema.users).where(eq(schema.users.id, sale.organiser.id)).get();
    if (!user) throw new Error("no organiser");
    await setWaitingRoom(
      ctx.database,
      user,
      sale.event.id,
      {
        opensAt: OPENING.toISOString(),
        ratePerMinute: settings.rate ?? 1,
        admissionMinutes: settings.admissionMinutes ?? 10,
      },
      at(-60 * MINUTE),
      SUPPORT,
    );
    const logins = await ctx.database.transaction(function* (tx) {
      const ids: number[] = [];
      for (let index = 0; index < count; index++) {
        const row = yield* run(
          tx
            .insert(schema.frontendLogins)
            .values({ eventId: sale.event.id, method: "anonymous", username: `guest-${index}` })
            .returning()
            .get(),
        );
        ids.push(row.id);
      }
      return ids;
    });
    return { sale, user, logins };
  }

  const join = (
    eventId: number,
    loginId: number,
    now: Date,
    extra: { address?: string; device?: string | null; draws?: DrawSource } = {},
  ) =>
    joinWaitingRoom(
      ctx.database,
      {
        loginIds: [loginId],
        address: extra.address ?? `198.18.0.${loginId % 250}`,
        device: extra.device ?? null,
        multiplier: 1,
        now,
        draws: extra.draws,
      },
      { eventId, testing: false },
    );

  it("places those who arrive after the opening in their order of arrival, after everyone who was early", async () => {
    const { sale, logins } = await roomWithLogins(30);
    const draws = seededDraws(7);
    for (const [index, loginId] of logins.entries()) {
      const { isNew } = await join(sale.event.id, loginId, at((index - 10) * 1000), {
        draws,
        address: `198.18.1.${index}`,
      });
      expect(isNew).toBe(true);
    }
    const positions = [];
    for (const loginId of logins) {
      const place = await readWaitingRoomPlace(
        ctx.database,
        { loginIds: [loginId], now: at(MINUTE) },
        { eventId: sale.event.id, testing: false },
      );
      positions.push(place.position);
    }
    // Every position once, none skipped.
    expect([...positions].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // The 10 early ones hold positions 1–10 in some order; the 20 later ones 11–30 in their order of arrival.
    expect(new Set(positions.slice(0, 10))).toEqual(new Set(Array.from({ length: 10 }, (_, i) => i + 1)));
    expect(positions.slice(10)).toEqual(Array.from({ length: 20 }, (_, i) => i + 11));
  });

  it("shows no position before the opening, and the opening time", async () => {
    const { sale, logins } = await roomWithLogins(1);
    const { place } = await join(sale.event.id, logins[0] as number, at(-5 * MINUTE));
    expect(place).toMatchObject({ state: "before_opening", position: null, opensAt: OPENING.toISOString() });
  });

  it("orders the early arrivals by a uniform shuffle (chi-square, fixed seed), whatever the order they came in", async () => {
    const SIZE = 6;
    const TRIALS = 600;
    const { sale, logins } = await roomWithLogins(SIZE);
    const draws = seededDraws(20301);
    // counts[i][j]: how often the i-th to arrive got position j + 1.
    const counts = Array.from({ length: SIZE }, () => Array<number>(SIZE).fill(0));
    let inArrivalOrder = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      await ctx.database.db.delete(schema.waitingRoomPlaces).where(eq(schema.waitingRoomPlaces.eventId, sale.event.id));
      for (const [index, loginId] of logins.entries())
        await join(sale.event.id, loginId, at(-(SIZE - index) * 1000), { draws, address: `198.18.2.${index}` });
      const positions: number[] = [];
      for (const [index, loginId] of logins.entries()) {
        const place = await readWaitingRoomPlace(
          ctx.database,
          { loginIds: [loginId], now: OPENING },
          { eventId: sale.event.id, testing: false },
        );
        const row = counts[index] as number[];
        row[(place.position as number) - 1] = (row[(place.position as number) - 1] ?? 0) + 1;
        positions.push(place.position as number);
      }
      if (positions.every((position, index) => position === index + 1)) inArrivalOrder += 1;
    }
    const expected = TRIALS / SIZE;
    const chiSquare = counts.flat().reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
    // (SIZE − 1)² = 25 degrees of freedom: 52.6 is the 0.1 % critical value. Arrival order would give 15,000.
    expect(chiSquare).toBeLessThan(52.6);
    // Arriving first gives no edge: the first to arrive is first about 1 time in SIZE.
    expect(Math.abs((counts[0]?.[0] ?? 0) - expected)).toBeLessThan(expected * 0.35);
    // The exact arrival order comes up about once in 6! = 720 trials: never the rule.
    expect(inArrivalOrder).toBeLessThan(5);
  });

  it("admits at the rate, lapses an admission no basket took up, and keeps one that did", async () => {
    const { sale, user, logins } = await roomWithLogins(4, { rate: 2, admissionMinutes: 5 });
    const [first, second, third, fourth] = logins as [number, number, number, number];
    for (const [index, loginId] of [first, second, third, fourth].entries())
      await join(sale.event.id, loginId, at(1000 + index), { address: `198.18.3.${index}` });
    const event = sale.event;
    // At one minute: positions 1–3 are in (one at the opening, then one every 30 s), the fourth waits 30 s more.
    const oneMinute = at(MINUTE);
    const firstPlace = await assertAdmitted(ctx.database, {
      event,
      login: { id: first, testing: false },
      now: oneMinute,
    });
    await expect(
      assertAdmitted(ctx.database, { event, login: { id: fourth, testing: false }, now: oneMinute }),
    ).rejects.toThrow("errors.waiting_room_turn_required");
    const waiting = await readWaitingRoomPlace(
      ctx.database,
      { loginIds: [fourth], now: oneMinute },
      { eventId: event.id, testing: false },
    );
    expect(waiting).toMatchObject({ state: "waiting", position: 4, ahead: 0, estimatedWaitSeconds: 30 });
    // The first holds a basket: admitted for good. The second never does: lapsed after 5 minutes.
    await noteHeld(ctx.database, firstPlace, at(2 * MINUTE));
    const late = at(6 * MINUTE);
    await assertAdmitted(ctx.database, { event, login: { id: first, testing: false }, now: late });
    await expect(
      assertAdmitted(ctx.database, { event, login: { id: second, testing: false }, now: late }),
    ).rejects.toThrow("errors.waiting_room_lapsed");
    // Joining again puts the lapsed buyer at the back, behind every place given so far.
    const again = await join(sale.event.id, second, late, { address: "198.18.3.1" });
    expect(again).toMatchObject({ isNew: true, place: { position: 5 } });
    // A preview needs no turn; an ended room neither.
    await assertAdmitted(ctx.database, { event, login: { id: fourth, testing: true }, now: at(0) });
    const live = await getWaitingRoom(ctx.database.db, user, event.id, late);
    expect(live.counts).toMatchObject({ places: 5, lapsed: 0, waiting: 0 });
    await actOnWaitingRoom(ctx.database, user, event.id, "end", late, SUPPORT);
    await assertAdmitted(ctx.database, { event, login: { id: second, testing: false }, now: late });
  });

  it("gives one place per login and per browser, and a few per address", async () => {
    const { sale, logins } = await roomWithLogins(6);
    const [a, b, c, d, e] = logins as [number, number, number, number, number];
    const now = at(MINUTE);
    const first = await join(sale.event.id, a, now, { device: "browser-1", address: "198.18.4.1" });
    expect((await join(sale.event.id, a, now, { device: "browser-1", address: "198.18.4.1" })).isNew).toBe(false);
    expect(first.isNew).toBe(true);
    await expect(join(sale.event.id, b, now, { device: "browser-1", address: "198.18.4.2" })).rejects.toThrow(
      "errors.waiting_room_place_per_device",
    );
    // Three from one address, not a fourth.
    for (const loginId of [b, c, d]) await join(sale.event.id, loginId, now, { address: "198.18.4.9" });
    await expect(join(sale.event.id, e, now, { address: "198.18.4.9" })).rejects.toThrow(
      "errors.waiting_room_places_per_address",
    );
  });

  it("lets the organiser run a draft's or public event's room, not a closed one's (a superuser may)", async () => {
    const { sale, user } = await roomWithLogins(0);
    await ctx.database.db.update(schema.events).set({ status: "closed" }).where(eq(schema.events.id, sale.event.id));
    await expect(actOnWaitingRoom(ctx.database, user, sale.event.id, "pause", at(0), SUPPORT)).rejects.toThrow(
      "errors.editing_locked",
    );
    const superuser = { ...user, isSuperuser: true };
    expect(await actOnWaitingRoom(ctx.database, superuser, sale.event.id, "pause", at(0), SUPPORT)).toMatchObject({
      status: "paused",
    });
  });

  it("moves the opening only before it, pauses and resumes from what was admitted", async () => {
    const { sale, user, logins } = await roomWithLogins(3, { rate: 60 });
    const event = sale.event;
    const opened = await actOnWaitingRoom(ctx.database, user, event.id, "open-now", at(-MINUTE), SUPPORT);
    expect(opened).toMatchObject({ isOpen: true, opensAt: at(-MINUTE).toISOString(), admittedPositions: 1 });
    await expect(actOnWaitingRoom(ctx.database, user, event.id, "open-now", at(0), SUPPORT)).rejects.toThrow(
      "errors.waiting_room_already_open",
    );
    await expect(
      setWaitingRoom(
        ctx.database,
        user,
        event.id,
        { opensAt: at(MINUTE).toISOString(), ratePerMinute: 60, admissionMinutes: 10 },
        at(0),
        SUPPORT,
      ),
    ).rejects.toThrow("errors.waiting_room_already_open");
    const paused = await actOnWaitingRoom(ctx.database, user, event.id, "pause", at(-MINUTE + 10_500), SUPPORT);
    expect(paused).toMatchObject({ status: "paused", admittedPositions: 11 });
    expect((await getWaitingRoom(ctx.database.db, user, event.id, at(10 * MINUTE))).admittedPositions).toBe(11);
    await join(event.id, logins[0] as number, at(0), { address: "198.18.5.1" });
    const place = await readWaitingRoomPlace(
      ctx.database,
      { loginIds: [logins[0] as number], now: at(0) },
      { eventId: event.id, testing: false },
    );
    expect(place).toMatchObject({ state: "admitted", position: 1 });
    const resumed = await actOnWaitingRoom(ctx.database, user, event.id, "resume", at(10 * MINUTE), SUPPORT);
    // The next one comes one interval (1 s at 60 a minute) after the resume, not at once.
    expect(resumed).toMatchObject({ status: "running", admittedPositions: 11 });
    expect((await getWaitingRoom(ctx.database.db, user, event.id, at(10 * MINUTE + 1000))).admittedPositions).toBe(12);
  });
});

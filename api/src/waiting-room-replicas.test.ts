// A waiting room served by two API processes on one database file (issue 30, docs/decisions/0037): the room has no
// process of its own, every process computes admissions from the rows. Buyers take places on either process, taking
// turns; each place is then read on both, which must agree on its position, its deadline and its state. Rooms admit
// one buyer a minute, so that the admission boundary stays put while the test reads (nothing is timed).
import { describe, expect, it } from "vitest";
import { buyerHeaders } from "../../bench/lib.ts";
import { type Api, guestOf, publicEventWithArticle } from "../../bench/rush.ts";
import { useTwoApiProcesses } from "./replicas.fixtures.ts";

const IN_ORDER = 40;
const AT_ONCE = 20;
const EARLY = 20;
const MINUTE = 60_000;
/** A place admitted this close to a read may be read on either side of its admission: its state is not compared. */
const BOUNDARY_MS = 5_000;
const START_LIMIT_MS = 60_000;
const RUN_LIMIT_MS = 60_000;

interface Buyer {
  token: string;
  address: string;
  /** Which process the buyer took their place on. */
  api: Api;
}

describe.each(["better-sqlite3", "libsql"] as const)(
  "two API processes on one database agree on every admission (%s)",
  (driver) => {
    const { apis } = useTwoApiProcesses(driver, "room", START_LIMIT_MS);

    /** A public event whose room (one buyer a minute, admissions lasting an hour) opens at `opensAt`. */
    async function eventWithRoom(name: string, opensAt: Date) {
      const { event, staff } = await publicEventWithArticle(apis[0], name, 100);
      const settings = { opens_at: opensAt.toISOString(), rate_per_minute: 1, admission_minutes: 60 };
      await apis[0].put(`/events/${event.id}/waiting-room`, settings, staff);
      return { event, staff };
    }

    /** A guest who signs in and takes a place on `api`, from an address of their own. */
    async function arrive(api: Api, event: { id: number; registration_module_id: number }): Promise<Buyer> {
      const { token, address } = await guestOf(api, event);
      await api.post("/frontend/waiting-room", { event_id: event.id }, token, buyerHeaders(address));
      return { token, address, api };
    }

    /** Each buyer's place as both processes answer it, read one buyer after the other. */
    async function readOnBoth(eventId: number, buyers: Buyer[]) {
      const readAt = Date.now();
      const places = [];
      for (const buyer of buyers)
        places.push(
          await Promise.all(apis.map((api) => api.get(`/frontend/waiting-room?event_id=${eventId}`, buyer.token))),
        );
      return { places, readAt, readUntil: Date.now() };
    }

    /** Both processes answer the same position, deadline and (away from the admission boundary) state. */
    function expectAgreement(read: Awaited<ReturnType<typeof readOnBoth>>, admittedAt: (position: number) => number) {
      for (const [first, second] of read.places) {
        expect(second.position).toBe(first.position);
        expect(second.admitted_until).toBe(first.admitted_until);
        const moment = admittedAt(first.position);
        if (moment < read.readAt - BOUNDARY_MS || moment > read.readUntil + BOUNDARY_MS)
          expect(second.state, `position ${first.position}`).toBe(first.state);
      }
    }

    it(
      "after the opening: positions 1..n in arrival order, whichever process gave them; the same answers on both",
      async () => {
        // Opened ten minutes and a second ago: positions 1 to 11 are in, the 12th comes in 59 s.
        const opensAt = new Date(Date.now() - 10 * MINUTE - 1_000);
        const { event, staff } = await eventWithRoom("Room replicas in order", opensAt);
        const inOrder: Buyer[] = [];
        for (let index = 0; index < IN_ORDER; index++) inOrder.push(await arrive(apis[index % 2] as Api, event));
        // Then a crowd at once, half on each process.
        const crowd = await Promise.all(
          Array.from({ length: AT_ONCE }, (_, index) => arrive(apis[index % 2] as Api, event)),
        );

        const read = await readOnBoth(event.id, [...inOrder, ...crowd]);
        const positions = read.places.map(([first]) => first.position as number);
        expect(positions.slice(0, IN_ORDER)).toEqual(Array.from({ length: IN_ORDER }, (_, index) => index + 1));
        expect([...positions.slice(IN_ORDER)].sort((a, b) => a - b)).toEqual(
          Array.from({ length: AT_ONCE }, (_, index) => IN_ORDER + index + 1),
        );
        expectAgreement(read, (position) => opensAt.getTime() + (position - 1) * MINUTE);

        const states = read.places.map(([first]) => first.state);
        expect(states.slice(0, 11)).toEqual(Array(11).fill("admitted"));
        expect(states.slice(12)).toEqual(Array(IN_ORDER + AT_ONCE - 12).fill("waiting"));
        // The organiser's view, from either process: the same room and counts.
        const rooms = await Promise.all(apis.map((api) => api.get(`/events/${event.id}/waiting-room`, staff)));
        expect(rooms[1]).toEqual(rooms[0]);
        expect(rooms[0].counts.places).toBe(IN_ORDER + AT_ONCE);
      },
      RUN_LIMIT_MS,
    );

    it(
      "before the opening: places drawn at the opening, the same draw on both processes, no position twice",
      async () => {
        const { event, staff } = await eventWithRoom("Room replicas early", new Date(Date.now() + 60 * MINUTE));
        const early = await Promise.all(
          Array.from({ length: EARLY }, (_, index) => arrive(apis[index % 2] as Api, event)),
        );
        const before = await readOnBoth(event.id, early);
        for (const pair of before.places)
          for (const place of pair) expect(place).toMatchObject({ state: "before_opening", position: null });

        // Opened now on the second process: the draw decides the order, and both read it alike.
        const opened = await apis[1].post(`/events/${event.id}/waiting-room/open-now`, {}, staff);
        const read = await readOnBoth(event.id, early);
        const positions = read.places.map(([first]) => first.position as number);
        expect([...positions].sort((a, b) => a - b)).toEqual(Array.from({ length: EARLY }, (_, index) => index + 1));
        expectAgreement(read, (position) => Date.parse(opened.opens_at) + (position - 1) * MINUTE);
        const admitted = read.places.filter(([first]) => first.state === "admitted").map(([first]) => first.position);
        expect(admitted).toEqual([1]);
      },
      RUN_LIMIT_MS,
    );
  },
);

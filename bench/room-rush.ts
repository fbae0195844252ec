// What the waiting room costs a buyer admitted at once (issue 30): the on-sale rush of rush.ts, once on an event
// without a room and once on an event whose room is open at a rate that admits everyone at once, each on a fresh
// server. With the room on, every add to a basket also checks the buyer's admission (two indexed reads).
import { MAX_WAITING_ROOM_RATE_PER_MINUTE } from "@ticketing/shared/constants";
import { buyerHeaders, QUICK, round, startServer } from "./lib.ts";
import { type Buyer, type BuyersMaker, buyersOf, guestOf, loadProduct, type RushLoad } from "./rush.ts";

/** The rush with the room on keeps at least this share of its reservations/s without it. */
export const ROOM_RUSH_RATIO_AIM = 0.8;
const ADMISSION_MINUTES = 60;
const ROUNDS = QUICK ? 1 : 2;

/**
 * The rush's buyers through an open room: each signs in from an address of their own and takes a place after the
 * opening (in arrival order, no draw); once the room has admitted them all, each opens a basket.
 */
const admittedBuyers: BuyersMaker = async (api, event, count, staff) => {
  const room = `/events/${event.id}/waiting-room`;
  const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
  const rate = MAX_WAITING_ROOM_RATE_PER_MINUTE;
  await api.put(room, { opens_at: inAnHour, rate_per_minute: rate, admission_minutes: ADMISSION_MINUTES }, staff);
  await api.post(`${room}/open-now`, {}, staff);
  const guests: { token: string }[] = [];
  for (let i = 0; i < count; i += 50)
    guests.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, async () => {
          const guest = await guestOf(api, event);
          await api.post("/frontend/waiting-room", { event_id: event.id }, guest.token, buyerHeaders(guest.address));
          return guest;
        }),
      )),
    );
  // At the highest rate the room admits one more every 0.6 ms: by now it has (or very nearly) admitted them all.
  while (((await api.get(room, staff)).admitted_positions as number) < count)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const buyers: Buyer[] = [];
  for (let i = 0; i < guests.length; i += 50)
    buyers.push(
      ...(await Promise.all(
        guests.slice(i, i + 50).map(async ({ token }) => {
          const basket = await api.post("/frontend/baskets", { event_id: event.id }, token);
          return { token, basketId: basket.id as number };
        }),
      )),
    );
  return buyers;
};

export interface RoomRushFigures {
  /** One load each way per round, taking turns (off, on, off, on…): the machine's drift falls on both. */
  rounds: { off: RushLoad; on: RushLoad }[];
  /** Over the rounds: reservations/s and the worst p99, each way. */
  off: { reservationsPerSecond: number; p99Ms: number };
  on: { reservationsPerSecond: number; p99Ms: number };
  /** reservations/s with the room on / off */
  ratio: number;
  ok: boolean;
}

async function rushOnFreshServer(makeBuyers: BuyersMaker): Promise<RushLoad> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  try {
    return await loadProduct(server.url, makeBuyers, QUICK ? { seconds: 3, warmupSeconds: 1 } : {});
  } finally {
    await server.stop();
  }
}

const overRounds = (loads: RushLoad[]) => ({
  reservationsPerSecond: round(loads.reduce((sum, l) => sum + l.reservationsPerSecond, 0) / loads.length, 0),
  p99Ms: Math.max(...loads.map((l) => l.p99Ms)),
});

export async function benchRoomRush(): Promise<RoomRushFigures> {
  const rounds: RoomRushFigures["rounds"] = [];
  for (let i = 0; i < ROUNDS; i++)
    rounds.push({ off: await rushOnFreshServer(buyersOf), on: await rushOnFreshServer(admittedBuyers) });
  const off = overRounds(rounds.map((r) => r.off));
  const on = overRounds(rounds.map((r) => r.on));
  const ok = rounds.every((r) => [r.off, r.on].every((load) => load.errors === 0 && load.oversold === 0));
  return { rounds, off, on, ratio: round(on.reservationsPerSecond / off.reservationsPerSecond, 3), ok };
}

export function roomRushReport(f: RoomRushFigures): string {
  const row = (name: string, l: RushLoad) =>
    `| ${name} | ${l.reservationsPerSecond} | ${l.p50Ms} | ${l.p99Ms} | ${l.reservations} | ${l.errors} | ${l.oversold} |`;
  const first = f.rounds[0]?.off;
  return `## On-sale rush with the waiting room off and on

The add-to-basket rush above (${first?.buyers} buyers, ${first?.connections} connections for ${first?.seconds} s), each load on a fresh server: on an
event without a waiting room, and on one whose room is open at ${MAX_WAITING_ROOM_RATE_PER_MINUTE.toLocaleString("en")} buyers a minute, every buyer
having taken a place after the opening and been admitted before the load; with the room on, each add checks the
buyer's admission. ${f.rounds.length} round(s), taking turns.

| round | waiting room | reservations/s | p50 ms | p99 ms | reservations | errors | oversold |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
${f.rounds.flatMap((r, i) => [row(`${i + 1} | off`, r.off), row(`${i + 1} | on, everyone admitted`, r.on)]).join("\n")}

**Room on / off: ${f.ratio}** (${f.on.reservationsPerSecond} / ${f.off.reservationsPerSecond} reservations/s over the rounds; aim ≥ ${ROOM_RUSH_RATIO_AIM}); worst p99
${f.on.p99Ms} ms on, ${f.off.p99Ms} ms off.
`;
}

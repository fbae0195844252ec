// A waiting list served by two API processes on one database file (issue 31, docs/decisions/0038): buyers join on
// either process; holders give their tickets back on either process while guests add on both; the freed tickets go
// to the first entries in line, none to the guests, and both processes show the same list.
import { sign } from "hono/jwt";
import { describe, expect, it } from "vitest";
import { buyerHeaders, nextBuyerAddress } from "../../bench/lib.ts";
import { type Api, guestOf, publicEventWithArticle } from "../../bench/rush.ts";
import { useTwoApiProcesses } from "./replicas.fixtures.ts";

const STOCK = 10;
const IN_LINE = 20;
const GUESTS = 20;
const START_LIMIT_MS = 60_000;
const RUN_LIMIT_MS = 60_000;

/** A call's status and JSON answer. */
async function call(api: Api, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(api.url + path, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...buyerHeaders(nextBuyerAddress()),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe.each(["better-sqlite3", "libsql"] as const)("two API processes serve one waiting list (%s)", (driver) => {
  const { apis } = useTwoApiProcesses(driver, "list", START_LIMIT_MS);

  it(
    "freed on either process, the tickets go to the first entries in line, none to guests adding on both",
    async () => {
      // Buyers join by a proved email: here a third party's signature.
      const { event, article, staff } = await publicEventWithArticle(apis[0], "List replicas", STOCK, {
        access_methods: ["anonymous", "third_party"],
      });
      const secret = event.third_party_secret_key as string;
      const nodeId = article.node.id as number;
      const list = await call(
        apis[1],
        "PUT",
        `/events/${event.id}/waiting-list`,
        { accepting: true, automatic: true, offer_minutes: 60, partial_offers: false },
        staff,
      );
      expect(list.status, JSON.stringify(list.body)).toBe(200);

      // The stock is held, a ticket each, by guests on both processes.
      const holders = [];
      for (let index = 0; index < STOCK; index++) {
        const api = apis[index % 2] as Api;
        const { token } = await guestOf(api, event);
        const basket = await call(api, "POST", "/frontend/baskets", { event_id: event.id }, token);
        const added = await call(
          api,
          "POST",
          "/frontend/selected-nodes",
          { basket_id: basket.body.id, node_id: nodeId },
          token,
        );
        expect(added.status, JSON.stringify(added.body)).toBe(201);
        holders.push({ api, token, basketId: basket.body.id as number, lineId: added.body.id as number });
      }

      // 20 buyers join in turn, on alternate processes.
      const joined = [];
      for (let index = 0; index < IN_LINE; index++) {
        const api = apis[index % 2] as Api;
        const exp = Math.floor(Date.now() / 1000) + 600;
        const token = await sign({ email: `line${index}@example.org`, exp }, secret, "HS256");
        const login = await call(api, "POST", "/auth/third-party-login", {
          active_module_id: event.registration_module_id,
          token,
        });
        expect(login.status, JSON.stringify(login.body)).toBe(200);
        const entry = await call(
          api,
          "POST",
          "/frontend/waiting-list",
          { event_id: event.id, node_id: nodeId, quantity: 1 },
          login.body.access_token,
        );
        expect(entry.status, JSON.stringify(entry.body)).toBe(201);
        expect(entry.body.position).toBe(index + 1);
        joined.push(entry.body.id as number);
      }

      // The holders give their tickets back while 20 guests add, all at once, on both processes.
      const guests = await Promise.all(
        Array.from({ length: GUESTS }, async (_, index) => {
          const api = apis[index % 2] as Api;
          const { token } = await guestOf(api, event);
          const basket = await call(api, "POST", "/frontend/baskets", { event_id: event.id }, token);
          return { api, token, basketId: basket.body.id as number };
        }),
      );
      const [removals, adds] = await Promise.all([
        Promise.all(
          holders.map((holder, index) =>
            call(
              apis[(index + 1) % 2] as Api,
              "DELETE",
              `/frontend/selected-nodes/${holder.lineId}?basket_id=${holder.basketId}`,
              undefined,
              holder.token,
            ),
          ),
        ),
        Promise.all(
          guests.map((guest) =>
            call(
              guest.api,
              "POST",
              "/frontend/selected-nodes",
              { basket_id: guest.basketId, node_id: nodeId },
              guest.token,
            ),
          ),
        ),
      ]);
      expect(removals.map((answer) => answer.status < 300)).toEqual(removals.map(() => true));
      expect(adds.map((answer) => answer.status)).toEqual(adds.map(() => 409));

      // Both processes list the same entries: the first ten offered, in line, the rest waiting.
      const lists = await Promise.all(
        apis.map((api) => call(api, "GET", `/events/${event.id}/waiting-list/entries?per_page=100`, undefined, staff)),
      );
      expect(lists[1]?.body).toEqual(lists[0]?.body);
      const entries = lists[0]?.body.data as { id: number; state: string }[];
      expect(entries.map((entry) => entry.id)).toEqual(joined);
      expect(entries.map((entry) => entry.state)).toEqual([
        ...Array(STOCK).fill("offered"),
        ...Array(IN_LINE - STOCK).fill("waiting"),
      ]);
      const counts = await Promise.all(
        apis.map((api) => call(api, "GET", `/events/${event.id}/waiting-list`, undefined, staff)),
      );
      expect(counts[1]?.body.counts).toEqual(counts[0]?.body.counts);
      expect(counts[0]?.body.counts).toMatchObject({ offered: STOCK, waiting: IN_LINE - STOCK });
    },
    RUN_LIMIT_MS,
  );
});

// A waiting list served by two API processes on one database file (issue 31, docs/decisions/0038): buyers join on
// either process; holders give their tickets back on either process while guests add on both; the freed tickets go
// to the first entries in line, none to the guests, and both processes show the same list.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sign } from "hono/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buyerHeaders, type ChildServer, nextBuyerAddress, startServer } from "../../bench/lib.ts";
import { type Api, apiOf, guestOf, staffTokens } from "../../bench/rush.ts";

/** Both processes sign and check the same tokens: the secret comes from the environment, as replicas need. */
const SECRET_KEY = "waiting-list-replicas-secret-0123456789abcdef";
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

/**
 * A public event with one article of STOCK, whose buyers may sign in as guests or by a third party's signature (a
 * proved email, which the list needs), set while it is a draft, as an organiser and a moderator would.
 */
async function publicEventForTheList(api: Api) {
  const { staff, moderator } = await staffTokens(api);
  const units = await api.get("/units", staff);
  const event = await api.post(
    "/events",
    {
      unit_id: units[0].id,
      name: "List replicas",
      frontend_title: "List replicas",
      frontend_path: `list-replicas-${Date.now()}`,
      start_date: "2030-01-01T10:00:00Z",
      end_date: "2030-01-01T20:00:00Z",
      access_methods: ["anonymous", "third_party"],
    },
    staff,
  );
  const article = await api.post(`/events/${event.id}/articles`, { title: "Entry", price: 5000, stock: STOCK }, staff);
  await api.post(`/events/${event.id}/moderation/request`, {}, staff);
  await api.post(`/events/${event.id}/moderation/approve`, {}, moderator);
  await api.put(`/events/${event.id}`, { status: "public" }, staff);
  return { event, article, staff, secret: event.third_party_secret_key as string };
}

describe.each(["better-sqlite3", "libsql"] as const)("two API processes serve one waiting list (%s)", (driver) => {
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-list-replicas-"));
  const servers: ChildServer[] = [];
  let apis: [Api, Api];

  beforeAll(async () => {
    const env = { DB_DRIVER: driver, SECRET_KEY };
    // One after the other: the first migrates and seeds the file, the second finds it done.
    servers.push(await startServer("api/src/server.ts", "/api/v1/health", env, dataDir));
    servers.push(await startServer("api/src/server.ts", "/api/v1/health", env, dataDir));
    apis = servers.map((server) => apiOf(server.url)) as [Api, Api];
  }, START_LIMIT_MS);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "freed on either process, the tickets go to the first entries in line, none to guests adding on both",
    async () => {
      const { event, article, staff, secret } = await publicEventForTheList(apis[0]);
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

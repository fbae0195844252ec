// The on-sale rush (issue 2): 200 concurrent buyers, each with their own frontend login and basket, add the
// same article against the real server; the same rush against the bare reference in the same run.
import { json, percentile, round, startServer } from "./lib.ts";

const BUYERS = Number(process.env.RUSH_BUYERS ?? 200);
const STOCK = Number(process.env.RUSH_STOCK ?? 100);
const ROUNDS = Number(process.env.RUSH_ROUNDS ?? 5);

export interface RushFigures {
  buyers: number;
  stock: number;
  rounds: number;
  reservations: number;
  refusals: number;
  errors: number;
  oversold: number;
  reservationsPerSecond: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

interface Shot {
  status: number;
  ms: number;
}

async function timed(run: () => Promise<Response>): Promise<Shot> {
  const start = performance.now();
  const response = await run();
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - start };
}

function summarise(shots: Shot[][], seconds: number[], oversold: number): RushFigures {
  const all = shots.flat();
  const latencies = all.map((s) => s.ms).sort((a, b) => a - b);
  const reservations = all.filter((s) => s.status === 201).length;
  const totalSeconds = seconds.reduce((a, b) => a + b, 0);
  return {
    buyers: BUYERS,
    stock: STOCK,
    rounds: ROUNDS,
    reservations,
    refusals: all.filter((s) => s.status === 409).length,
    errors: all.filter((s) => s.status !== 201 && s.status !== 409).length,
    oversold,
    reservationsPerSecond: round(reservations / totalSeconds, 0),
    requestsPerSecond: round(all.length / totalSeconds, 0),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
  };
}

/** The product: login, validation, pricing, the guarded stock counter — everything a real buyer goes through. */
export async function rushProduct(env: Record<string, string> = {}): Promise<RushFigures> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos", env);
  const api = `${server.url}/api/v1`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(api + path, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  try {
    const { access_token: staff } = await json(
      await post("/auth/login", { email: "organiser@example.org", password: "demo-organiser-2026!" }),
    );
    const { access_token: moderator } = await json(
      await post("/auth/login", { email: "moderator@example.org", password: "demo-moderator-2026!" }),
    );
    const units = await json(await fetch(`${api}/units`, { headers: { authorization: `Bearer ${staff}` } }));
    const shots: Shot[][] = [];
    const seconds: number[] = [];
    let oversold = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const event = await json(
        await post(
          "/events",
          {
            unit_id: units[0].id,
            name: `Rush ${r}`,
            frontend_title: `Rush ${r}`,
            frontend_path: `rush-${r}-${Date.now()}`,
            start_date: "2030-01-01T10:00:00Z",
            end_date: "2030-01-01T20:00:00Z",
          },
          staff,
        ),
      );
      const article = await json(
        await post(`/events/${event.id}/articles`, { title: "Entry", price: 5000, stock: STOCK }, staff),
      );
      // Going public needs a moderator's approval (DESIGN.md 4).
      await json(await post(`/events/${event.id}/moderation/request`, {}, staff));
      await json(await post(`/events/${event.id}/moderation/approve`, {}, moderator));
      await json(
        await fetch(`${api}/events/${event.id}`, {
          method: "PUT",
          headers: { "content-type": "application/json", authorization: `Bearer ${staff}` },
          body: JSON.stringify({ status: "public" }),
        }),
      );
      const buyers = await Promise.all(
        Array.from({ length: BUYERS }, async () => {
          const login = await json(
            await post("/auth/anonymous-login", { active_module_id: event.registration_module_id }),
          );
          const basket = await json(await post("/frontend/baskets", { event_id: event.id }, login.access_token));
          return { token: login.access_token as string, basketId: basket.id as number };
        }),
      );
      const start = performance.now();
      const roundShots = await Promise.all(
        buyers.map((b) =>
          timed(() => post("/frontend/selected-nodes", { basket_id: b.basketId, node_id: article.node.id }, b.token)),
        ),
      );
      shots.push(roundShots);
      seconds.push((performance.now() - start) / 1000);
      const limit = await json(
        await fetch(`${api}/node-limits/${article.limit.id}`, { headers: { authorization: `Bearer ${staff}` } }),
      );
      oversold +=
        Math.max(0, limit.reserved + limit.sold - STOCK) +
        Math.max(0, roundShots.filter((s) => s.status === 201).length - STOCK);
    }
    return summarise(shots, seconds, oversold);
  } finally {
    await server.stop();
  }
}

/** The bare reference: one-row reservation, no auth. */
export async function rushReference(): Promise<RushFigures> {
  const server = await startServer("bench/reference-server.ts", "/stocks/0");
  try {
    const shots: Shot[][] = [];
    const seconds: number[] = [];
    let oversold = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const stock = await json(
        await fetch(`${server.url}/stocks`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ maximum: STOCK }),
        }),
      );
      const start = performance.now();
      shots.push(
        await Promise.all(
          Array.from({ length: BUYERS }, (_, i) =>
            timed(() =>
              fetch(`${server.url}/stocks/${stock.id}/reservations`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ buyer: `b${i}` }),
              }),
            ),
          ),
        ),
      );
      seconds.push((performance.now() - start) / 1000);
      const row = await json(await fetch(`${server.url}/stocks/${stock.id}`));
      oversold += Math.max(0, row.used - STOCK);
    }
    return summarise(shots, seconds, oversold);
  } finally {
    await server.stop();
  }
}

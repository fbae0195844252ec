// Issue 4: the buyer's tree of an event with 1,000 articles, against a plain SELECT of those rows, in one run.
import Database from "better-sqlite3";
import { json, median, round, startServer } from "./lib.ts";

const ARTICLES = Number(process.env.TREE_ARTICLES ?? 1000);
const SAMPLES = Number(process.env.TREE_SAMPLES ?? 30);

export interface TreeFigures {
  articles: number;
  samples: number;
  firstTreeMs: number;
  treeMedianMs: number;
  selectMedianMs: number;
  ratio: number;
  treeBytes: number;
}

export async function benchTree(): Promise<TreeFigures> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  const api = `${server.url}/api/v1`;
  const post = async (path: string, body: unknown, token?: string) =>
    json(
      await fetch(api + path, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      }),
    );
  try {
    const { access_token: staff } = await post("/auth/login", {
      email: "moderator@example.org",
      password: "demo-moderator-2026!",
    });
    const units = await json(await fetch(`${api}/units`, { headers: { authorization: `Bearer ${staff}` } }));
    const event = await post(
      "/events",
      {
        unit_id: units[0].id,
        name: "Big",
        frontend_title: "Big",
        frontend_path: `big-${Date.now()}`,
        start_date: "2030-01-01T10:00:00Z",
        end_date: "2030-01-01T20:00:00Z",
      },
      staff,
    );
    for (let i = 0; i < ARTICLES; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, ARTICLES - i) }, (_, k) =>
          post(`/events/${event.id}/articles`, { title: `Seat ${i + k}`, price: 1000 + i + k, stock: 100 }, staff),
        ),
      );
    await post(`/events/${event.id}/moderation/request`, {}, staff);
    await post(`/events/${event.id}/moderation/approve`, {}, staff);
    await json(
      await fetch(`${api}/events/${event.id}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${staff}` },
        body: JSON.stringify({ status: "public" }),
      }),
    );
    const login = await post("/auth/anonymous-login", { active_module_id: event.registration_module_id });
    const tree = async () => {
      const start = performance.now();
      const response = await fetch(`${api}/frontend/events/${event.id}/tree`, {
        headers: { authorization: `Bearer ${login.access_token}` },
      });
      const body = await response.text();
      if (!response.ok) throw new Error(body);
      return {
        ms: performance.now() - start,
        bytes: body.length,
        count: (body.match(/"category":"article"/g) ?? []).length,
      };
    };
    const first = await tree();
    if (first.count !== ARTICLES) throw new Error(`the tree has ${first.count} articles, not ${ARTICLES}`);
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) times.push((await tree()).ms);
    // The same rows read raw from the same database file: the floor any tree endpoint sits on.
    const db = new Database(`${server.dataDir}/ticketing.sqlite`, { readonly: true });
    const select = db.prepare(
      `SELECT n.*, c.*, k.* FROM nodes n JOIN node_configurations c ON c.id = n.configuration_id
       JOIN node_cart_configurations k ON k.id = n.cart_configuration_id WHERE n.event_id = ?`,
    );
    const selects: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const start = performance.now();
      select.all(event.id);
      selects.push(performance.now() - start);
    }
    db.close();
    const treeMedianMs = median(times);
    const selectMedianMs = median(selects);
    return {
      articles: ARTICLES,
      samples: SAMPLES,
      firstTreeMs: round(first.ms),
      treeMedianMs: round(treeMedianMs),
      selectMedianMs: round(selectMedianMs, 3),
      ratio: round(treeMedianMs / selectMedianMs, 1),
      treeBytes: first.bytes,
    };
  } finally {
    await server.stop();
  }
}

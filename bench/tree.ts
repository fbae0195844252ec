// Issues 4 and 15: the buyer's tree of an event with 1,000 articles through the real server, against a plain SELECT
// of the same rows from the same database file, in one run; and the tree under sustained load (autocannon).
// Runs alone (`npx tsx bench/tree.ts`) or from `npm run bench`.
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { answeredWith, CONNECTIONS, cannon, type LoadFigures } from "./cannon.ts";
import { buyerHeaders, json, median, nextBuyerAddress, round, startServer } from "./lib.ts";

const ARTICLES = Number(process.env.TREE_ARTICLES ?? 1000);
const SAMPLES = Number(process.env.TREE_SAMPLES ?? 30);
/** The aim of issue 15: the tree costs at most twice the plain SELECT of its rows. */
export const TREE_RATIO_AIM = 2;

export interface TreeFigures {
  articles: number;
  samples: number;
  /** the first tree: the catalogue loaded and its answer's fixed parts written */
  firstTreeMs: number;
  treeMedianMs: number;
  selectMedianMs: number;
  /** tree median / SELECT median */
  ratio: number;
  treeBytes: number;
  load: LoadFigures;
}

/** An event with `ARTICLES` articles of stock 100 each, on sale, through the back office's API. */
async function seedBigEvent(api: string) {
  const post = async (path: string, body: unknown, token?: string, headers: Record<string, string> = {}) =>
    json(
      await fetch(api + path, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: JSON.stringify(body),
      }),
    );
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
  const login = await post(
    "/auth/anonymous-login",
    { active_module_id: event.registration_module_id },
    undefined,
    buyerHeaders(nextBuyerAddress()),
  );
  return { eventId: event.id as number, token: login.access_token as string };
}

export async function benchTree(): Promise<TreeFigures> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  try {
    const { eventId, token } = await seedBigEvent(`${server.url}/api/v1`);
    const path = `/api/v1/frontend/events/${eventId}/tree`;
    const headers = { authorization: `Bearer ${token}` };
    const tree = async () => {
      const start = performance.now();
      const response = await fetch(server.url + path, { headers });
      const body = await response.text();
      if (!response.ok) throw new Error(body);
      return { ms: performance.now() - start, body };
    };
    const first = await tree();
    const articles = (first.body.match(/"category":"article"/g) ?? []).length;
    if (articles !== ARTICLES) throw new Error(`the tree has ${articles} articles, not ${ARTICLES}`);
    // The same rows read raw from the same database file: the floor any tree endpoint sits on.
    const db = new Database(`${server.dataDir}/ticketing.sqlite`, { readonly: true });
    const select = db.prepare(
      `SELECT n.*, c.*, k.* FROM nodes n JOIN node_configurations c ON c.id = n.configuration_id
       JOIN node_cart_configurations k ON k.id = n.cart_configuration_id WHERE n.event_id = ?`,
    );
    // One of each in turn, sequentially: both see the same moments of a noisy machine.
    const trees: number[] = [];
    const selects: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      trees.push((await tree()).ms);
      const start = performance.now();
      select.all(eventId);
      selects.push(performance.now() - start);
    }
    db.close();
    const load = await cannon(server.url, () => ({ path, headers }));
    const treeMedianMs = median(trees);
    const selectMedianMs = median(selects);
    return {
      articles: ARTICLES,
      samples: SAMPLES,
      firstTreeMs: round(first.ms),
      treeMedianMs: round(treeMedianMs),
      selectMedianMs: round(selectMedianMs, 3),
      ratio: round(treeMedianMs / selectMedianMs, 1),
      treeBytes: Buffer.byteLength(first.body),
      load,
    };
  } finally {
    await server.stop();
  }
}

export function treeReport(f: TreeFigures): string {
  return `## The buyer's tree

\`GET /frontend/events/:id/tree\` of an event with ${f.articles.toLocaleString("en")} articles (${f.treeBytes.toLocaleString("en")} bytes of JSON), through the
real server, one request at a time, against a plain \`SELECT\` of the same nodes with their configurations from the same
database file, in turn (${f.samples} samples each, medians). Then the tree alone under load: ${CONNECTIONS} connections, ${f.load.seconds} s.

| | ms |
| --- | ---: |
| tree, first call (catalogue loaded, fixed parts written) | ${f.firstTreeMs} |
| tree, median | ${f.treeMedianMs} |
| plain SELECT, median | ${f.selectMedianMs} |
| tree under load: ${f.load.requestsPerSecond} trees/s, p50 / p99 | ${f.load.p50Ms} / ${f.load.p99Ms} |

**tree / SELECT: ${f.ratio}** (aim ≤ ${TREE_RATIO_AIM}); under load ${answeredWith(f.load, 200)} answers 200, ${f.load.errors} errors.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchTree();
  console.log(`\n${treeReport(figures)}`);
  console.log(JSON.stringify(figures, null, 2));
}

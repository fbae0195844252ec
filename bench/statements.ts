// SQL statements a request executes, counted in-process on the real product (better-sqlite3's statement hook),
// and the CPU time of an add-to-basket measured the same way, one after another (no load generator in the way).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadConfig } from "../api/src/env.ts";
import { createLogger } from "../api/src/lib/log.ts";
import { createProduct } from "../api/src/product.ts";
import { buyerHeaders, nextBuyerAddress, round } from "./lib.ts";
import { apiOf, buyersOf, publicEventWithArticle } from "./rush.ts";

const ADDS = Number(process.env.STATEMENT_ADDS ?? 2_000);
const BUY_PAGES = Number(process.env.STATEMENT_BUY_PAGES ?? 300);

export interface StatementFigures {
  perAdd: number;
  perBuyPage: number;
  /** CPU time (user + system) of one add-to-basket, averaged over `adds` in a row. */
  addCpuMs: number;
  adds: number;
  /** CPU time (user + system) of one buy page, averaged over `buyPages` in a row. */
  buyPageCpuMs: number;
  buyPages: number;
  /** The statements of one add, in order (BEGIN, its savepoint and COMMIT included). */
  addStatements: string[];
}

export async function benchStatements(): Promise<StatementFigures> {
  // As `npm start` runs: React's production build (chosen from NODE_ENV when the pages are first loaded).
  process.env.NODE_ENV = "production";
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-statements-"));
  let log: string[] | null = null;
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "3999",
    NODE_ENV: "production",
    LOG_MAILS: "false",
  });
  // In the bench's own process: its request lines would interleave with the report.
  const product = await createProduct(config, {
    onStatement: (sql) => log?.push(sql),
    logger: createLogger({ level: "silent" }),
  });
  const api = apiOf("http://localhost", (url, init) => product.app.request(url, init));
  const counting = async (run: () => Promise<unknown>) => {
    log = [];
    await run();
    const statements = log;
    log = null;
    return statements;
  };
  try {
    const { event, article } = await publicEventWithArticle(api, "Statements", 1_000_000);
    const buyers = await buyersOf(api, event, 100);
    const add = (turn: number) => {
      const buyer = buyers[turn % buyers.length] as (typeof buyers)[number];
      return api.post("/frontend/selected-nodes", { basket_id: buyer.basketId, node_id: article.node.id }, buyer.token);
    };
    // Warm: the catalogue loaded, the statements compiled, the JIT done.
    for (let i = 0; i < 200; i++) await add(i);
    const addStatements = await counting(() => add(0));
    const cpu = process.cpuUsage();
    for (let i = 0; i < ADDS; i++) await add(i);
    const used = process.cpuUsage(cpu);
    // The buy page of a guest signed in the way a browser without JavaScript is: a form post, then the cookie.
    const office = `http://localhost/tickets/${event.frontend_path}`;
    const login = await product.app.request(`${office}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...buyerHeaders(nextBuyerAddress()) },
      body: new URLSearchParams({ intent: "anonymous", nextUrl: `/tickets/${event.frontend_path}/buy` }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const buyPage = async () => (await product.app.request(`${office}/buy`, { headers: { cookie } })).text();
    if (!(await buyPage()).includes("Entry")) throw new Error("the buy page does not show the article");
    const pageStatements = await counting(buyPage);
    for (let i = 0; i < 50; i++) await buyPage();
    const pageCpu = process.cpuUsage();
    for (let i = 0; i < BUY_PAGES; i++) await buyPage();
    const pageUsed = process.cpuUsage(pageCpu);
    return {
      perAdd: addStatements.length,
      perBuyPage: pageStatements.length,
      addCpuMs: round((used.user + used.system) / 1000 / ADDS, 3),
      adds: ADDS,
      buyPageCpuMs: round((pageUsed.user + pageUsed.system) / 1000 / BUY_PAGES, 3),
      buyPages: BUY_PAGES,
      addStatements,
    };
  } finally {
    await product.stop();
  }
}

export function statementsReport(f: StatementFigures): string {
  return `## SQL statements and CPU per request

Counted in-process on the real product (every statement better-sqlite3 executes, BEGIN and COMMIT included), after
a warm-up; the CPU time is the process's own (user + system) over ${f.adds} add-to-baskets in a row, then
${f.buyPages} buy pages in a row (the page and the API calls it makes in-process). One add at a time, each
is a commit of its own: under the rush's load the adds of one turn of the event loop share one (ADR 0040).

| | statements | CPU ms |
| --- | ---: | ---: |
| add-to-basket | ${f.perAdd} | ${f.addCpuMs} |
| buy page (guest, JavaScript off) | ${f.perBuyPage} | ${f.buyPageCpuMs} |

<details><summary>The statements of one add-to-basket</summary>

${f.addStatements.map((s) => `- \`${s.replace(/\s+/g, " ")}\``).join("\n")}

</details>
`;
}

// Alone: `npx tsx bench/statements.ts` (under `flock /tmp/bench.lock`) prints its section.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(statementsReport(await benchStatements()));

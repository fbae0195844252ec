// Issue 13: the csv and xlsx exports of an event with 50,000 sold items, through the real server: seconds, bytes
// and the server's peak memory for each file, beside a plain SELECT of the same rows from the same database file
// in the same run. Exports stream, so the server's peak RSS must grow by less than 100 MB over its idle RSS.
// Runs alone (`npx tsx bench/exports.ts`) or from `npm run bench`.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import ExcelJS from "exceljs";
import { json, round, startServer } from "./lib.ts";

const ITEMS = Number(process.env.EXPORT_ITEMS ?? 50_000);
const ITEMS_PER_BASKET = 2;
/** The aim: the server's memory stays flat however large the event (peak − idle, MB). */
export const EXPORT_GROWTH_LIMIT_MB = 100;

export interface ExportFigures {
  list: "participants" | "baskets";
  format: "csv" | "xlsx";
  rows: number;
  expectedRows: number;
  seconds: number;
  bytes: number;
  /** the server's RSS after start and a warm-up request, before this export */
  idleRssMb: number;
  peakRssMb: number;
  /** peak − idle: what the aim bounds */
  growthMb: number;
  selectSeconds: number;
  ratio: number;
}

export interface ExportsFigures {
  items: number;
  baskets: number;
  seedSeconds: number;
  /** How the peak was taken: the kernel's high-water mark (reset before each export), or sampling every 10 ms. */
  peakMethod: "VmHWM" | "sampled";
  selects: { participantsSeconds: number; basketsSeconds: number; participantsRows: number; basketsRows: number };
  exports: ExportFigures[];
  /** Every file has the expected rows and every export grew the server by less than the limit. */
  ok: boolean;
}

const MB = 1024 * 1024;

/** A figure of /proc/<pid>/status in bytes (VmRSS, VmHWM). */
function statusBytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  if (!line) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(line.replace(/\D+/g, "")) * 1024;
}

/** Resets the kernel's high-water mark of the process's RSS to its current RSS; false where that is refused. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** The records of an RFC 4180 csv (quoted fields may hold line breaks), without the header. */
export function csvDataRows(text: string): number {
  let records = 0;
  let quoted = false;
  let lineHasContent = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34) quoted = !quoted;
    if (!quoted && ch === 10) {
      if (lineHasContent) records += 1;
      lineHasContent = false;
    } else if (ch !== 13) lineHasContent = true;
  }
  if (lineHasContent) records += 1;
  return records - 1;
}

/** The data rows of an xlsx's first worksheet (without the header), read back with exceljs' streaming reader. */
export async function xlsxDataRows(file: Buffer): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), {
    worksheets: "emit",
    sharedStrings: "cache",
  });
  for await (const worksheet of reader) {
    let rows = 0;
    for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) if (row.hasValues) rows += 1;
    return rows - 1;
  }
  return -1;
}

/** Writes `items` sold articles straight into the database file: validated baskets, billing, answers, paid invoices. */
function seedSales(
  file: string,
  sale: {
    eventId: number;
    unitId: number;
    nodeId: number;
    configurationId: number;
    limitId: number;
    price: number;
    title: string;
    group: { id: number; name: string };
    fields: { id: number; name: string; type: string; values: string[] }[];
  },
  items: number,
): number {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  const insert = (table: string, columns: string[]) =>
    db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
  const login = insert("frontend_logins", ["event_id", "testing", "method", "email", "username", "validated_at"]);
  const billing = insert("billing_information", [
    "first_name",
    "last_name",
    "email",
    "address",
    "postal_code",
    "city",
    "country",
    "created_by_id",
  ]);
  const basket = insert("baskets", [
    "event_id",
    "created_by_id",
    "status",
    "testing",
    "billing_information_id",
    "language",
    "unikey",
    "expires_at",
    "created_at",
    "updated_at",
  ]);
  const line = insert("selected_nodes", [
    "basket_id",
    "node_id",
    "configuration_id",
    "title",
    "is_article",
    "price",
    "status",
    "created_at",
  ]);
  const lineLimit = insert("selected_node_limits", ["selected_node_id", "limit_id", "is_testing"]);
  const answerGroup = insert("selected_node_extra_info_groups", [
    "selected_node_id",
    "group_id",
    "name",
    "is_required",
  ]);
  const answer = insert("selected_node_extra_infos", ["selected_group_id", "extra_info_id", "name", "type", "value"]);
  const invoice = insert("invoices", [
    "basket_id",
    "unit_id",
    "number",
    "is_testing",
    "amount",
    "is_resolved",
    "resolved_at",
    "created_at",
  ]);
  const invoiceLine = insert("invoice_lines", ["invoice_id", "selected_node_id", "title", "amount", "is_refund"]);
  const intent = insert("payment_intents", ["invoice_id", "created_by_id", "module_key", "psp_id", "psp_payment_id"]);
  const firstNames = ["Ada", "Émile", "Zoë", "Jean-François", "Chloé", "Noah", "Léa", "Luca"];
  const lastNames = ["Lovelace", "Müller", "Dubois", "Rossi", "Favre", "Gex-Fabry", "Nguyen", "Da Silva"];
  const start = Date.parse("2026-03-01T08:00:00Z");
  const write = db.transaction(() => {
    const lastNumber = db
      .prepare("SELECT coalesce(max(number), 0) AS n FROM invoices WHERE unit_id = ? AND is_testing = 0")
      .get(sale.unitId) as { n: number };
    let sold = 0;
    for (let b = 0; sold < items; b++) {
      const at = new Date(start + b * 37_000).toISOString();
      const email = `buyer${b}@example.org`;
      const loginId = login.run(sale.eventId, 0, "trusted_email", email, email, at).lastInsertRowid;
      const first = firstNames[b % firstNames.length] as string;
      const last = lastNames[(b >> 3) % lastNames.length] as string;
      const billingId = billing.run(
        first,
        last,
        email,
        `${b} Rue du Lac`,
        "1006",
        "Lausanne",
        "CH",
        loginId,
      ).lastInsertRowid;
      const count = Math.min(ITEMS_PER_BASKET, items - sold);
      const basketId = basket.run(
        sale.eventId,
        loginId,
        "validated",
        0,
        billingId,
        b % 3 === 0 ? "fr" : "en",
        `B${b.toString(36).toUpperCase().padStart(7, "0")}`,
        at,
        at,
        at,
      ).lastInsertRowid;
      const invoiceId = invoice.run(
        basketId,
        sale.unitId,
        lastNumber.n + b + 1,
        0,
        count * sale.price,
        1,
        at,
        at,
      ).lastInsertRowid;
      intent.run(invoiceId, loginId, "demo", `demo_bench_${b}`, `demo_paid_${b}`);
      for (let k = 0; k < count; k++, sold++) {
        const lineId = line.run(
          basketId,
          sale.nodeId,
          sale.configurationId,
          sale.title,
          1,
          sale.price,
          "held",
          at,
        ).lastInsertRowid;
        lineLimit.run(lineId, sale.limitId, 0);
        const groupId = answerGroup.run(lineId, sale.group.id, sale.group.name, 0).lastInsertRowid;
        for (const field of sale.fields)
          answer.run(groupId, field.id, field.name, field.type, field.values[sold % field.values.length] as string);
        invoiceLine.run(invoiceId, lineId, sale.title, sale.price, 0);
      }
    }
    // The stock counter moves with the rows (docs/design.md §4 "Stock").
    db.prepare("UPDATE node_limits SET used = used + ? WHERE id = ?").run(sold, sale.limitId);
  });
  const startedAt = performance.now();
  write();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return (performance.now() - startedAt) / 1000;
}

/** The floor any export sits on: the same rows read raw, all columns, in this process from the same file. */
function plainSelects(file: string, eventId: number) {
  const db = new Database(file, { readonly: true });
  const time = (query: string) => {
    // Rows as arrays: every column of every table (as objects, the joined tables' `id`s would overwrite each other).
    const statement = db.prepare(query).raw(true);
    statement.all(eventId); // warm the page cache as the server's first export did not have
    const start = performance.now();
    const rows = statement.all(eventId).length;
    return { seconds: (performance.now() - start) / 1000, rows };
  };
  const participants = time(
    `SELECT s.*, b.*, i.* FROM selected_nodes s JOIN baskets b ON b.id = s.basket_id
     LEFT JOIN billing_information i ON i.id = b.billing_information_id
     WHERE b.event_id = ? AND b.testing = 0 AND s.is_article = 1 AND s.status = 'held' AND b.status = 'validated'`,
  );
  const baskets = time(
    `SELECT b.*, i.* FROM baskets b LEFT JOIN billing_information i ON i.id = b.billing_information_id
     WHERE b.event_id = ? AND b.testing = 0`,
  );
  db.close();
  return { participants, baskets };
}

export async function benchExports(): Promise<ExportsFigures> {
  // 1. A real event, article and form through the API (the server migrates and seeds the demo on start).
  const setup = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  const dataDir = setup.dataDir;
  const file = `${dataDir}/ticketing.sqlite`;
  const api = `${setup.url}/api/v1`;
  const call = async (method: string, path: string, body: unknown, token?: string) =>
    json(
      await fetch(api + path, {
        method,
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      }),
    );
  const credentials = { email: "organiser@example.org", password: "demo-organiser-2026!" };
  let sale: Parameters<typeof seedSales>[1];
  try {
    const { access_token: staff } = await call("POST", "/auth/login", credentials);
    const { access_token: moderator } = await call("POST", "/auth/login", {
      email: "moderator@example.org",
      password: "demo-moderator-2026!",
    });
    const units = await json(await fetch(`${api}/units`, { headers: { authorization: `Bearer ${staff}` } }));
    const event = await call(
      "POST",
      "/events",
      {
        unit_id: units[0].id,
        name: "Export bench",
        frontend_title: "Export bench",
        frontend_path: `export-bench-${Date.now()}`,
        start_date: "2030-01-01T10:00:00Z",
        end_date: "2030-01-01T20:00:00Z",
      },
      staff,
    );
    const article = await call(
      "POST",
      `/events/${event.id}/articles`,
      { title: "Entrée", price: 4500, stock: ITEMS + 10_000 },
      staff,
    );
    const group = await call(
      "POST",
      "/node-extra-info-groups",
      { event_id: event.id, name: "Participant", node_configuration_ids: [article.configuration.id] },
      staff,
    );
    const size = await call(
      "POST",
      "/node-extra-infos",
      { event_id: event.id, group_id: group.id, name: "T-shirt size", type: "choice", choices_json: ["S", "M", "L"] },
      staff,
    );
    const diet = await call(
      "POST",
      "/node-extra-infos",
      { event_id: event.id, group_id: group.id, name: "Dietary needs", type: "text", order: 1 },
      staff,
    );
    await call("POST", `/events/${event.id}/moderation/request`, {}, staff);
    await call("POST", `/events/${event.id}/moderation/approve`, {}, moderator);
    await call("PUT", `/events/${event.id}`, { status: "public" }, staff);
    sale = {
      eventId: event.id,
      unitId: event.unit_id,
      nodeId: article.node.id,
      configurationId: article.configuration.id,
      limitId: article.limit.id,
      price: 4500,
      title: "Entrée",
      group: { id: group.id, name: group.name },
      fields: [
        { id: size.id, name: size.name, type: size.type, values: ["S", "M", "L"] },
        { id: diet.id, name: diet.name, type: diet.type, values: ["", "vegetarian", "no nuts, please", "vegan"] },
      ],
    };
  } finally {
    await setup.stop();
  }

  // 2. The sales, straight into the file while no server runs (not measured).
  const seedSeconds = seedSales(file, sale, ITEMS);
  const basketCount = Math.ceil(ITEMS / ITEMS_PER_BASKET);
  console.log(`  seeded ${ITEMS} sold items in ${basketCount} baskets in ${round(seedSeconds, 1)} s`);
  // Before the server starts again: a long synchronous read here would outlast the keep-alive of its sockets.
  const selects = plainSelects(file, sale.eventId);

  // 3. Each export on the server started afresh on that data, so each is measured from an idle server: its RSS
  // after start and a warm-up request, then its peak while the file is sent. (On one server, the heap a previous
  // export left to the next garbage collection would count against the next one.)
  const filter = encodeURIComponent(JSON.stringify({ event_id: sale.eventId }));
  const expected = { participants: ITEMS, baskets: basketCount };
  const exports: ExportFigures[] = [];
  let peakMethod: ExportsFigures["peakMethod"] = "VmHWM";
  try {
    for (const list of ["participants", "baskets"] as const)
      for (const format of ["csv", "xlsx"] as const) {
        const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos", {}, dataDir);
        const pid = server.process.pid as number;
        const base = `${server.url}/api/v1`;
        try {
          const login = await json(
            await fetch(`${base}/auth/login`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(credentials),
            }),
          );
          const auth = { authorization: `Bearer ${login.access_token}` };
          // The warm-up, which also checks that the server agrees with the rows written behind its back.
          const limit = await json(await fetch(`${base}/node-limits/${sale.limitId}`, { headers: auth }));
          if (limit.sold !== ITEMS) throw new Error(`the stock shows ${limit.sold} sold, not ${ITEMS}`);
          await new Promise((r) => setTimeout(r, 500));
          const idle = statusBytes(pid, "VmRSS");
          let sampledPeak = idle;
          const canReset = resetPeak(pid);
          if (!canReset) peakMethod = "sampled";
          const sampler = canReset
            ? undefined
            : setInterval(() => {
                sampledPeak = Math.max(sampledPeak, statusBytes(pid, "VmRSS"));
              }, 10);
          const start = performance.now();
          const response = await fetch(`${base}/exports/${list}?format=${format}&filter=${filter}`, {
            headers: auth,
          });
          if (!response.ok) throw new Error(`${response.status} ${list}.${format}: ${await response.text()}`);
          const chunks: Uint8Array[] = [];
          let bytes = 0;
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
            chunks.push(chunk);
            bytes += chunk.byteLength;
          }
          const seconds = (performance.now() - start) / 1000;
          if (sampler) clearInterval(sampler);
          const peak = canReset ? statusBytes(pid, "VmHWM") : sampledPeak;
          const body = Buffer.concat(chunks);
          const rows = format === "csv" ? csvDataRows(body.toString("utf8")) : await xlsxDataRows(body);
          const select = list === "participants" ? selects.participants : selects.baskets;
          exports.push({
            list,
            format,
            rows,
            expectedRows: expected[list],
            seconds: round(seconds, 2),
            bytes,
            idleRssMb: round(idle / MB, 1),
            peakRssMb: round(peak / MB, 1),
            growthMb: round((peak - idle) / MB, 1),
            selectSeconds: round(select.seconds, 3),
            ratio: round(seconds / select.seconds, 1),
          });
          console.log(
            `  ${list}.${format}: ${rows} rows, ${round(seconds, 2)} s, RSS ${round(idle / MB, 1)} → ${round(peak / MB, 1)} MB`,
          );
        } finally {
          await server.stop();
        }
      }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    items: ITEMS,
    baskets: basketCount,
    seedSeconds: round(seedSeconds, 1),
    peakMethod,
    selects: {
      participantsSeconds: round(selects.participants.seconds, 3),
      basketsSeconds: round(selects.baskets.seconds, 3),
      participantsRows: selects.participants.rows,
      basketsRows: selects.baskets.rows,
    },
    exports,
    ok: exports.every((e) => e.rows === e.expectedRows && e.growthMb < EXPORT_GROWTH_LIMIT_MB),
  };
}

/** The report's section (markdown). */
export function exportsReport(f: ExportsFigures): string {
  const rows = f.exports.map(
    (e) =>
      `| ${e.list} | ${e.format} | ${e.rows}${e.rows === e.expectedRows ? "" : ` (expected ${e.expectedRows})`} | ${e.seconds} | ${round(e.bytes / MB, 1)} | ${e.idleRssMb} | ${e.peakRssMb} | ${e.growthMb} | ${e.selectSeconds} | ${e.ratio} |`,
  );
  return `## Exports

\`GET /exports/:list?format=csv|xlsx&filter={"event_id":…}\` of an event with ${f.items.toLocaleString("en")} sold items
(${f.baskets.toLocaleString("en")} validated baskets with billing information, two form answers per item, paid invoices),
through the real server, downloaded whole; beside a plain \`SELECT\` of the same rows (sold lines joined with their
baskets and billing information, all columns as arrays, better-sqlite3 \`.raw().all()\`) from the same file in the same run.
Each export runs on the server started afresh on the data: idle RSS after start and a warm-up request, peak RSS from
${f.peakMethod === "VmHWM" ? "the kernel's high-water mark (VmHWM, reset before the export)" : "VmRSS sampled every 10 ms"}.
Seeding the rows straight into the database took ${f.seedSeconds} s (not measured).

| list | format | data rows | seconds | MB | idle RSS MB | peak RSS MB | growth over idle MB | SELECT s | export / SELECT |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join("\n")}

**Peak RSS growth over idle (aim < ${EXPORT_GROWTH_LIMIT_MB} MB): ${Math.max(...f.exports.map((e) => e.growthMb))} MB at most**; row counts ${f.exports.every((e) => e.rows === e.expectedRows) ? "right" : "WRONG"}.
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchExports();
  console.log(`\n${exportsReport(figures)}`);
  console.log(JSON.stringify(figures, null, 2));
  if (!figures.ok) {
    console.error("Wrong row counts or memory growth over the limit: the benchmark fails.");
    process.exitCode = 1;
  }
}

// The bare reference of the rush benchmark: a minimal Hono server doing a one-row SQLite reservation,
// no auth, no validation, no pricing. What the product is compared with. It also serves the files a bench writes
// to its data folder's `files/` (read once, then from memory): a page's cost against the cheapest answer of its HTML.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import Database from "better-sqlite3";
import { Hono } from "hono";

const dataDir = process.env.DATA_DIR ?? "/tmp/reference";
mkdirSync(dataDir, { recursive: true });
const db = new Database(join(dataDir, "reference.sqlite"));
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.exec(
  "CREATE TABLE IF NOT EXISTS stock (id INTEGER PRIMARY KEY, maximum INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0)",
);
db.exec(
  "CREATE TABLE IF NOT EXISTS reservations (id INTEGER PRIMARY KEY, stock_id INTEGER NOT NULL, buyer TEXT NOT NULL)",
);
const reserve = db.prepare("UPDATE stock SET used = used + 1 WHERE id = ? AND used < maximum");
const record = db.prepare("INSERT INTO reservations (stock_id, buyer) VALUES (?, ?)");
const reserveOne = db.transaction((stockId: number, buyer: string) => {
  if (reserve.run(stockId).changes === 0) return false;
  record.run(stockId, buyer);
  return true;
});

// Checkout's counterpart: billing details written on an order, then the order put in payment with a payment row.
db.exec("CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, status TEXT NOT NULL DEFAULT 'new', billing TEXT)");
db.exec(
  "CREATE TABLE IF NOT EXISTS payments (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, status TEXT NOT NULL)",
);
const bill = db.prepare("UPDATE orders SET billing = ? WHERE id = ? AND status = 'new'");
const toPayment = db.prepare(
  "UPDATE orders SET status = 'paying' WHERE id = ? AND status = 'new' AND billing IS NOT NULL",
);
const recordPayment = db.prepare("INSERT INTO payments (order_id, status) VALUES (?, 'pending') RETURNING id");
const checkOut = db.transaction((orderId: number) => {
  if (toPayment.run(orderId).changes === 0) return null;
  return recordPayment.get(orderId) as { id: number };
});

const app = new Hono();
app.post("/orders", (c) => c.json(db.prepare("INSERT INTO orders DEFAULT VALUES RETURNING id").get(), 201));
app.post("/orders/:id/billing", async (c) => {
  const billing = await c.req.json();
  return bill.run(JSON.stringify(billing), Number(c.req.param("id"))).changes
    ? c.json(billing, 201)
    : c.json({ errors: ["Not found"] }, 404);
});
app.post("/orders/:id/checkout", (c) => {
  const payment = checkOut(Number(c.req.param("id")));
  return payment ? c.json(payment, 201) : c.json({ errors: ["Not payable"] }, 409);
});
app.post("/stocks", async (c) => {
  const { maximum } = (await c.req.json()) as { maximum: number };
  const row = db.prepare("INSERT INTO stock (maximum) VALUES (?) RETURNING id").get(maximum) as { id: number };
  return c.json(row, 201);
});
app.get("/stocks/:id", (c) => c.json(db.prepare("SELECT * FROM stock WHERE id = ?").get(Number(c.req.param("id")))));
app.post("/stocks/:id/reservations", async (c) => {
  const { buyer } = (await c.req.json()) as { buyer: string };
  return reserveOne(Number(c.req.param("id")), buyer)
    ? c.json({ ok: true }, 201)
    : c.json({ errors: ["Sold out"] }, 409);
});
const files = new Map<string, Uint8Array<ArrayBuffer>>();
app.get("/files/:name{[\\w-]+\\.html}", (c) => {
  const name = c.req.param("name");
  let file = files.get(name);
  if (!file) {
    try {
      file = new Uint8Array(readFileSync(join(dataDir, "files", name)));
    } catch {
      return c.text("Not found", 404);
    }
    files.set(name, file);
  }
  return c.body(file, 200, { "content-type": "text/html; charset=utf-8" });
});
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3901) }, () => console.log("reference ready"));

// The bare reference of the rush benchmark: a minimal server doing a one-row SQLite reservation, no auth, no
// validation, no pricing. What the product is compared with. It also serves the files a bench writes to its data
// folder's `files/` (read once, then from memory): a page's cost against the cheapest answer of its HTML.
// REFERENCE_ADAPTER picks the server: `hono` (Hono on @hono/node-server, as the product; the default) or `node-http`
// (the same routes straight on node:http, no framework): the rush measures both and compares with the faster, so
// that its ratio is against the fastest bare server of the same shape, not one an adapter slows down.
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
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

const port = Number(process.env.PORT ?? 3901);
const adapter = process.env.REFERENCE_ADAPTER ?? "hono";
if (adapter !== "hono" && adapter !== "node-http")
  throw new Error(`REFERENCE_ADAPTER: hono or node-http, not ${adapter}`);

const newOrder = () => db.prepare("INSERT INTO orders DEFAULT VALUES RETURNING id").get();
const newStock = (maximum: number) => db.prepare("INSERT INTO stock (maximum) VALUES (?) RETURNING id").get(maximum);
const stockOf = (id: number) => db.prepare("SELECT * FROM stock WHERE id = ?").get(id);
const files = new Map<string, Uint8Array<ArrayBuffer>>();
/** A bench's file, read once then from memory; null when there is none. */
function fileOf(name: string) {
  let file = files.get(name);
  if (!file) {
    try {
      file = new Uint8Array(readFileSync(join(dataDir, "files", name)));
    } catch {
      return null;
    }
    files.set(name, file);
  }
  return file;
}

if (adapter === "hono") serveHono();
else serveNodeHttp();

function serveHono() {
  const app = new Hono();
  app.post("/orders", (c) => c.json(newOrder(), 201));
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
    return c.json(newStock(maximum), 201);
  });
  app.get("/stocks/:id", (c) => c.json(stockOf(Number(c.req.param("id")))));
  app.post("/stocks/:id/reservations", async (c) => {
    const { buyer } = (await c.req.json()) as { buyer: string };
    return reserveOne(Number(c.req.param("id")), buyer)
      ? c.json({ ok: true }, 201)
      : c.json({ errors: ["Sold out"] }, 409);
  });
  app.get("/files/:name{[\\w-]+\\.html}", (c) => {
    const file = fileOf(c.req.param("name"));
    return file ? c.body(file, 200, { "content-type": "text/html; charset=utf-8" }) : c.text("Not found", 404);
  });
  serve({ fetch: app.fetch, port }, () => console.log("reference ready"));
}

/** The same routes on node:http alone: the body read as a string, the path split by hand, JSON written out. */
function serveNodeHttp() {
  const send = (response: ServerResponse, status: number, body: unknown) => {
    const text = body === undefined ? "null" : JSON.stringify(body);
    response.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
    });
    response.end(text);
  };
  const bodyOf = (request: IncomingMessage) =>
    new Promise<unknown>((resolve, reject) => {
      let text = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => {
        text += chunk;
      });
      request.on("end", () => {
        try {
          resolve(JSON.parse(text));
        } catch (error) {
          reject(error);
        }
      });
      request.on("error", reject);
    });
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const [path = ""] = (request.url ?? "").split("?");
    const [, root, id, action, more] = path.split("/");
    const post = request.method === "POST";
    if (root === "stocks") {
      if (post && id !== undefined && action === "reservations" && more === undefined) {
        const { buyer } = (await bodyOf(request)) as { buyer: string };
        return reserveOne(Number(id), buyer)
          ? send(response, 201, { ok: true })
          : send(response, 409, { errors: ["Sold out"] });
      }
      if (post && id === undefined) {
        const { maximum } = (await bodyOf(request)) as { maximum: number };
        return send(response, 201, newStock(maximum));
      }
      if (request.method === "GET" && id !== undefined && action === undefined)
        return send(response, 200, stockOf(Number(id)));
    }
    if (root === "orders" && post) {
      if (id === undefined) return send(response, 201, newOrder());
      if (action === "billing" && more === undefined) {
        const billing = await bodyOf(request);
        return bill.run(JSON.stringify(billing), Number(id)).changes
          ? send(response, 201, billing)
          : send(response, 404, { errors: ["Not found"] });
      }
      if (action === "checkout" && more === undefined) {
        const payment = checkOut(Number(id));
        return payment ? send(response, 201, payment) : send(response, 409, { errors: ["Not payable"] });
      }
    }
    if (root === "files" && request.method === "GET" && id && /^[\w-]+\.html$/.test(id) && action === undefined) {
      const file = fileOf(id);
      if (file) {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": file.byteLength });
        return response.end(file);
      }
    }
    response.writeHead(404, { "content-type": "text/plain" });
    response.end("Not found");
  };
  createServer((request, response) => {
    answer(request, response).catch(() => {
      if (!response.headersSent) send(response, 400, { errors: ["Bad request"] });
      else response.destroy();
    });
  }).listen(port, () => console.log("reference ready"));
}

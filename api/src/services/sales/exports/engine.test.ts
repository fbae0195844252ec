// The export engine on its own: what a cell becomes, Swiss time across the clock changes, a failure once the file
// is under way, and a slow reader holding the writer back (memory stays flat).
import type { AddressInfo } from "node:net";
import { type PassThrough, Readable } from "node:stream";
import { type ServerType, serve } from "@hono/node-server";
import ExcelJS from "exceljs";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../../../lib/log.ts";
import { type CellValue, type ExportTable, exportFile, neutralise, swissMoment } from "./engine.ts";

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

function table(rows: AsyncIterable<CellValue[][]>): ExportTable {
  return {
    fileName: "test",
    sheetName: "Test",
    columns: [
      { header: "Name", kind: "text" },
      { header: "Count", kind: "integer" },
      { header: "Amount", kind: "money" },
      { header: "When", kind: "moment" },
    ],
    rows,
  };
}

async function* batches(count: number, size: number, failAfter?: number): AsyncGenerator<CellValue[][]> {
  for (let batch = 0; batch < count; batch++) {
    if (failAfter !== undefined && batch === failAfter) throw new Error("the database went away");
    yield Array.from({ length: size }, (_, i) => [
      `Row ${batch * size + i} ${"x".repeat(100)}`,
      i,
      -2000,
      "2026-07-01T10:00:00.000Z",
    ]);
  }
}

describe("cells", () => {
  it("neutralises what a spreadsheet would read as a formula, and only that", () => {
    for (const text of ["=1+2", "+41 21 000 00 00", "-Charles", "@SUM(A1)", "\tx", "\rx"])
      expect(neutralise(text)).toBe(`'${text}`);
    for (const text of ["Ada", "1+2", " =1", "'=1", "", "a=b"]) expect(neutralise(text)).toBe(text);
  });

  it("writes moments in Swiss time with their offset, summer and winter, and days as days", () => {
    expect(swissMoment("2026-11-24T10:00:00.000Z")?.text).toBe("2026-11-24 11:00:00+01:00");
    expect(swissMoment("2026-07-01T10:00:00.999Z")?.text).toBe("2026-07-01 12:00:00+02:00");
    // The clocks go forward at 01:00 UTC on the last Sunday of March, back at 01:00 UTC on the last of October.
    expect(swissMoment("2026-03-29T00:59:59.000Z")?.text).toBe("2026-03-29 01:59:59+01:00");
    expect(swissMoment("2026-03-29T01:00:00.000Z")?.text).toBe("2026-03-29 03:00:00+02:00");
    expect(swissMoment("2026-10-25T00:59:59.000Z")?.text).toBe("2026-10-25 02:59:59+02:00");
    expect(swissMoment("2026-10-25T01:00:00.000Z")?.text).toBe("2026-10-25 02:00:00+01:00");
    expect(swissMoment("2026-11-24T10:00:00.000Z")?.wall).toEqual(new Date("2026-11-24T11:00:00.000Z"));
    expect(swissMoment("2030-01-01")).toEqual({
      wall: new Date("2030-01-01T00:00:00.000Z"),
      text: "2030-01-01",
      isDay: true,
    });
    expect(swissMoment("not a date")).toBeNull();
  });

  it("writes a value that is not a number as text in a number column, neutralised", async () => {
    const file = exportFile(
      table(
        (async function* () {
          yield [["-x", "-3", 150, "soon"]];
        })(),
      ),
      "csv",
    );
    const text = (await read(file.stream)).toString("utf8");
    expect(text).toBe("\uFEFFName,Count,Amount,When\r\n'-x,-3,1.50,soon\r\n");
  });
});

describe("a failure while the file is sent", () => {
  for (const format of ["csv", "xlsx"] as const)
    it(`cuts the ${format} download with an error, logged once, and nothing else breaks`, async () => {
      const lines: string[] = [];
      const logger = createLogger({ destination: { write: (line: string) => lines.push(line) } });
      const file = exportFile(table(batches(5, 10, 2)), format, logger);
      await expect(read(file.stream)).rejects.toThrow("the database went away");
      expect(lines.map((line) => JSON.parse(line))).toMatchObject([
        { level: 50, msg: "export failed while it was being sent", err: { message: "the database went away" } },
      ]);
    });
});

describe("a failure while the file is sent by the server", () => {
  it("cuts that download and keeps answering others", async () => {
    const app = new Hono();
    app.get("/files/:format", (c) => {
      const file = exportFile(table(batches(50, 100, 3)), c.req.param("format") as "csv" | "xlsx");
      return c.body(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, 200);
    });
    app.get("/ping", (c) => c.text("pong"));
    const server = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // @hono/node-server reports a response stream that failed on the console.
    const log = console.error;
    console.error = () => {};
    try {
      // The connection is cut: before the headers when nothing was sent yet (exceljs holds its first bytes), or
      // after them; either way the download fails rather than ending as a truncated file.
      for (const format of ["csv", "xlsx"])
        await expect(fetch(`${base}/files/${format}`).then((response) => response.arrayBuffer())).rejects.toThrow();
      expect(await (await fetch(`${base}/ping`)).text()).toBe("pong");
    } finally {
      console.error = log;
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("a slow reader", () => {
  it("holds the xlsx writer back: it reads the next batch only once the file's bytes were taken", async () => {
    let batchesRead = 0;
    async function* counted() {
      for await (const batch of batches(120, 500)) {
        batchesRead += 1;
        yield batch;
      }
    }
    const file = exportFile(table(counted()), "xlsx");
    // Nobody reads: the file's stream fills up and asks its writer to wait…
    const output = file.stream as PassThrough;
    await vi.waitFor(() => expect(output.writableNeedDrain).toBe(true), { timeout: 20_000 });
    const readWhenFull = batchesRead;
    // …which stops (after the batch under way at most) instead of writing 60,000 rows into memory, however many
    // turns the event loop takes meanwhile. How many batches filled the stream depends on how well they compress
    // (about 15 here), not on time.
    for (let turn = 0; turn < 200; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(batchesRead).toBeGreaterThan(0);
    expect(batchesRead).toBeLessThanOrEqual(readWhenFull + 1);
    expect(batchesRead).toBeLessThan(40);
    const bytes = await read(file.stream);
    expect(batchesRead).toBe(120);
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {});
    let count = 0;
    for await (const sheet of reader)
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) if (row.number > 1) count += 1;
    expect(count).toBe(60_000);
  }, 60_000);
});

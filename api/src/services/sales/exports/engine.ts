// The export engine (docs/decisions/0011-exports.md): a table of chosen columns whose rows come in batches, written
// as csv (RFC 4180, UTF-8 with a BOM) or xlsx (exceljs' streaming writer) while it is sent, so memory stays flat
// however many rows there are. Text that a spreadsheet would read as a formula is neutralised in both formats.
import { PassThrough, Readable } from "node:stream";
import { and, asc, desc, eq, gt, lt, or, sql } from "@ticketing/db";
import type { ExportFormat } from "@ticketing/shared/constants";
import { centsToDecimal } from "@ticketing/shared/money";
import type { SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteSelect } from "drizzle-orm/sqlite-core";
import type { SQLiteSelectExecute } from "drizzle-orm/sqlite-core/query-builders/select.types";
import ExcelJS from "exceljs";
import { type Log, log } from "../../../lib/log.ts";

/**
 * How a column's cells are written. `text` is neutralised; `integer` and `number` are numbers (a value that is not
 * one is written as text); `money` is cents, written in CHF; `moment` is an ISO date or moment of the database,
 * written in Swiss time.
 */
export type ColumnKind = "text" | "integer" | "number" | "money" | "moment";
export type CellValue = string | number | null | undefined;

export interface Column {
  header: string;
  kind: ColumnKind;
  /** in characters; a width for the kind otherwise */
  width?: number;
}

export interface ExportTable {
  /** the file's name without its extension: plain ASCII */
  fileName: string;
  /** the worksheet's name (at most 31 characters) */
  sheetName: string;
  columns: Column[];
  /** the rows in batches, each row one value per column */
  rows: AsyncIterable<CellValue[][]>;
}

export interface ExportFile {
  stream: Readable;
  contentType: string;
  fileName: string;
}

/** How many rows each read of the database takes. */
export const BATCH_SIZE = 500;

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

// ---------------------------------------------------------------------------------------------------------------
// Cells

/** OWASP "CSV injection": a cell starting with one of these is read as a formula by spreadsheets. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text a spreadsheet shows as written: one that would start a formula gets a leading `'`. */
export const neutralise = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** Characters XML 1.0 cannot hold (an xlsx is XML): a buyer's pasted control character must not break the file. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const ZURICH = new Intl.DateTimeFormat("en-US", {
  timeZone: "Europe/Zurich",
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});
const HOUR_MS = 3_600_000;
// Switzerland's offset changes on whole UTC hours: one reading of the time zone per hour of the rows.
const offsets = new Map<number, number>();

/** Minutes Swiss time is ahead of UTC at `ms`. */
function zurichOffset(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const parts = Object.fromEntries(ZURICH.formatToParts(hour * HOUR_MS).map((p) => [p.type, Number(p.value)]));
    const wall = Date.UTC(
      parts.year as number,
      (parts.month as number) - 1,
      parts.day,
      parts.hour,
      parts.minute,
      parts.second,
    );
    offset = (wall - hour * HOUR_MS) / 60_000;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A database date or moment as it reads in Switzerland: `wall` holds the Swiss wall-clock time in its UTC fields
 * (what an xlsx cell, which has no time zone, shows), `text` the same with its offset (`2026-11-24 11:00:00+01:00`).
 * A date without a time stays a date. Null when it is not a date.
 */
export function swissMoment(iso: string): { wall: Date; text: string; isDay: boolean } | null {
  if (DAY.test(iso)) {
    const day = new Date(`${iso}T00:00:00.000Z`);
    return Number.isNaN(day.getTime()) ? null : { wall: day, text: iso, isDay: true };
  }
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const seconds = Math.floor(ms / 1000) * 1000;
  const offset = zurichOffset(seconds);
  const wall = new Date(seconds + offset * 60_000);
  const sign = offset < 0 ? "-" : "+";
  const text =
    `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())} ` +
    `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return { wall, text, isDay: false };
}

/** A number as the column holds it, or null when the value is not one (it is then written as text). */
function numberOf(kind: ColumnKind, value: CellValue): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || !/^-?\d+(\.\d+)?$/.test(value.trim())) return null;
  const parsed = Number(value.trim());
  return kind === "integer" && !Number.isInteger(parsed) ? null : parsed;
}

/** A cell of the csv: numbers as plain decimals (cents as `45.00`), moments in Swiss time, text neutralised. */
function csvValue(kind: ColumnKind, value: CellValue): string {
  if (value === null || value === undefined || value === "") return "";
  if (kind === "money" && typeof value === "number") return centsToDecimal(value);
  if (kind === "integer" || kind === "number") {
    const number = numberOf(kind, value);
    if (number !== null) return String(number);
  }
  if (kind === "moment" && typeof value === "string") {
    const moment = swissMoment(value);
    if (moment) return moment.text;
  }
  return neutralise(String(value));
}

/** A cell of the xlsx: typed (numbers, CHF amounts, dates), text neutralised as in the csv. */
function xlsxValue(kind: ColumnKind, value: CellValue): ExcelJS.CellValue {
  if (value === null || value === undefined || value === "") return null;
  if (kind === "money" && typeof value === "number") return value / 100;
  if (kind === "integer" || kind === "number") {
    const number = numberOf(kind, value);
    if (number !== null) return number;
  }
  if (kind === "moment" && typeof value === "string") {
    const moment = swissMoment(value);
    if (moment) return moment.wall;
  }
  return neutralise(String(value).replace(NOT_XML, ""));
}

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

// ---------------------------------------------------------------------------------------------------------------
// Writers

const WIDTHS: Record<ColumnKind, number> = { text: 22, integer: 10, number: 12, money: 14, moment: 22 };
export const MONEY_FORMAT = '#,##0.00 "CHF"';
export const MOMENT_FORMAT = "yyyy-mm-dd hh:mm:ss";
export const DAY_FORMAT = "yyyy-mm-dd";
const NUMBER_FORMATS: Partial<Record<ColumnKind, string>> = {
  integer: "0",
  money: MONEY_FORMAT,
  moment: MOMENT_FORMAT,
};

/** The csv: a BOM (Excel then reads UTF-8), a header line, one CRLF-ended line per row, written batch by batch. */
async function* csvChunks(table: ExportTable): AsyncGenerator<Buffer> {
  const line = (cells: string[]) => `${cells.map(csvField).join(",")}\r\n`;
  yield Buffer.from(`\uFEFF${line(table.columns.map((column) => neutralise(column.header)))}`, "utf8");
  for await (const batch of table.rows) {
    let text = "";
    for (const row of batch) text += line(table.columns.map((column, i) => csvValue(column.kind, row[i])));
    yield Buffer.from(text, "utf8");
  }
}

/** Waits until what was written has left `stream` (the reader took it), or the reader went away. */
function drained(stream: PassThrough): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

/**
 * The xlsx through exceljs' streaming writer: typed cells, a bold frozen header row with an autofilter, column
 * widths. Each batch's rows are committed (written out of memory) and the next batch waits until the reader took
 * what was written.
 */
function xlsxStream(table: ExportTable, logger: Log): Readable {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(table.sheetName.slice(0, 31), {
    views: [{ state: "frozen", ySplit: 1 }],
  });
  sheet.columns = table.columns.map((column) => ({
    width: column.width ?? Math.max(WIDTHS[column.kind], Math.min(column.header.length + 2, 40)),
    style: NUMBER_FORMATS[column.kind] ? { numFmt: NUMBER_FORMATS[column.kind] } : {},
  }));
  if (table.columns.length > 0)
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: table.columns.length } };
  const momentColumns = table.columns.flatMap((column, i) => (column.kind === "moment" ? [i] : []));
  const write = async () => {
    const header = sheet.addRow(table.columns.map((column) => neutralise(column.header.replace(NOT_XML, ""))));
    header.font = { bold: true };
    header.commit();
    for await (const batch of table.rows) {
      if (output.destroyed) return;
      for (const cells of batch) {
        const row = sheet.addRow(table.columns.map((column, i) => xlsxValue(column.kind, cells[i])));
        // A moment column shows times; a day in it (an event's date without a time) shows only its date.
        for (const i of momentColumns) {
          const value = cells[i];
          if (typeof value === "string" && DAY.test(value)) row.getCell(i + 1).numFmt = DAY_FORMAT;
        }
        row.commit();
      }
      await drained(output);
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => failed(output, error, logger));
  return output;
}

/** An export that fails once its file is under way cannot answer an error: the download is cut and the cause logged. */
function failed(stream: Readable, error: unknown, logger: Log) {
  logger.error({ err: error }, "export failed while it was being sent");
  stream.destroy(error instanceof Error ? error : new Error(String(error)));
}

/** The table written in the format asked, as a stream read while it is sent. */
/** `logger`: where a failure once the file is under way is told (the request's, lib/log.ts). */
export function exportFile(table: ExportTable, format: ExportFormat, logger: Log = log): ExportFile {
  let stream: Readable;
  if (format === "csv") {
    const chunks = csvChunks(table);
    stream = Readable.from(
      (async function* () {
        try {
          yield* chunks;
        } catch (error) {
          logger.error({ err: error }, "export failed while it was being sent");
          throw error;
        }
      })(),
      { objectMode: false },
    );
  } else stream = xlsxStream(table, logger);
  return { stream, contentType: CONTENT_TYPES[format], fileName: `${table.fileName}.${format}` };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading in batches

/** A list's order read in batches: its sort column, then the id (ties, and the sort by id itself). */
export interface Keyset {
  column: SQLiteColumn;
  id: SQLiteColumn;
  order: "asc" | "desc";
}

/** The sort column's value, to select beside a row's own so that the next batch starts after it. */
export const sortKeyOf = ({ column }: Keyset) => sql<string | number>`${column}`;

/** The ORDER BY of a keyset. */
export function keysetOrder({ column, id, order }: Keyset): SQL[] {
  const by = order === "asc" ? asc : desc;
  return column === id ? [by(id)] : [by(column), by(id)];
}

/** The rows after the last one read, in the keyset's order. */
function keysetAfter({ column, id, order }: Keyset, last: { sort: unknown; id: number }): SQL | undefined {
  const after = order === "asc" ? gt : lt;
  if (column === id) return after(id, last.id);
  return or(after(column, last.sort), and(eq(column, last.sort), after(id, last.id)));
}

/**
 * Every row a query selects, in batches of BATCH_SIZE in the keyset's order, never an offset: `select` is the
 * query without its WHERE (`$dynamic()`), selecting `id` and `sortKey: sortKeyOf(keyset)` among its fields; each
 * batch starts after the last row of the previous one.
 */
export async function* inBatches<Q extends SQLiteSelect>(
  keyset: Keyset,
  where: SQL | undefined,
  select: () => Q,
): AsyncGenerator<SQLiteSelectExecute<Q>> {
  let after: SQL | undefined;
  for (;;) {
    const query = select()
      .where(and(where, after))
      .orderBy(...keysetOrder(keyset))
      .limit(BATCH_SIZE);
    const rows = (await query.all()) as SQLiteSelectExecute<Q>;
    if (rows.length > 0) yield rows;
    const last = rows.at(-1) as { id: number; sortKey?: unknown } | undefined;
    if (!last || rows.length < BATCH_SIZE) return;
    after = keysetAfter(keyset, { sort: last.sortKey ?? last.id, id: last.id });
  }
}

/**
 * Maps each batch of `rows`: to a file's cells, or to its rows with what a batch reads at once added to them (with
 * `Object.assign`, not a spread: a copy of each row, kept until the xlsx writer commits the batch, raised the peak
 * memory of a 50,000-row export by a third).
 */
export async function* mapBatches<R, T>(
  rows: AsyncIterable<R[]>,
  map: (batch: R[]) => Promise<T[]> | T[],
): AsyncGenerator<T[]> {
  for await (const batch of rows) yield await map(batch);
}

/** A column of a list's file with the cell it reads from a row: header and value stand together. */
export interface RowColumn<R> extends Column {
  cell: (row: R) => CellValue;
}

/** A file's columns and its rows, each column's cell read from every row of `batches`. */
export function columnsOf<R>(
  columns: RowColumn<R>[],
  batches: AsyncIterable<R[]>,
): Pick<ExportTable, "columns" | "rows"> {
  return { columns, rows: mapBatches(batches, (rows) => rows.map((row) => columns.map((column) => column.cell(row)))) };
}

// Migration 0013 (docs/decisions/0043) on a database made before it: every organiser text written before stays as
// it was and reads as the English, its French beside it empty.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inLanguage } from "@ticketing/shared/content-language";
import BetterSqlite3 from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "./index.ts";

const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), "../migrations");

/** The migrations folder as it was before `tag`: its files and journal up to the one before. */
function migrationsBefore(tag: string) {
  const folder = mkdtempSync(join(tmpdir(), "ticketing-migrations-"));
  mkdirSync(join(folder, "meta"));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta/_journal.json"), "utf8"));
  const cut = journal.entries.findIndex((entry: { tag: string }) => entry.tag === tag);
  if (cut < 0) throw new Error(`No migration ${tag}`);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify(journal));
  for (const entry of journal.entries as { tag: string }[])
    copyFileSync(join(MIGRATIONS, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  return folder;
}

/** Each organiser text of a database made before 0013, by table: what an organiser had written. */
const WRITTEN: Record<string, Record<string, string>> = {
  events: {
    frontend_title: "Lakeside Jazz Festival",
    welcome_text: "Two days of jazz by the lake.",
    frontend_organizers: "The Lakeside association",
    location_text: "Quai d'Ouchy, Lausanne",
  },
  node_configurations: { title: "Day pass", description: "Entry on Saturday or Sunday." },
  node_tags: { name: "Family" },
  node_accesses: { label: "Members only" },
  node_availabilities: { name: "Early sale" },
  node_extra_info_groups: { name: "About you", help_text: "For the badges." },
  node_extra_infos: {
    text: "Your diet",
    name: "Diet",
    help_text: "We cook for you.",
    choices_json: '["Vegan","None"]',
  },
  node_limits: { label: "Site capacity" },
  node_price_rules: { label: "Early bird −10 %" },
  points_of_sale: { title: "Box office", description: "Cash or card.", location: "Main gate" },
  selected_nodes: { title: "Day pass" },
  selected_node_extra_info_groups: { name: "About you" },
  selected_node_extra_infos: { name: "Diet" },
};

/** A row of `table` holding `texts`, every other required column filled with a value of its type. */
function insertRow(sqlite: BetterSqlite3.Database, table: string, texts: Record<string, string>) {
  const columns = sqlite.prepare(`PRAGMA table_info(${table})`).all() as {
    name: string;
    type: string;
    notnull: number;
    dflt_value: string | null;
    pk: number;
  }[];
  const values: Record<string, unknown> = { ...texts };
  for (const column of columns)
    if (!(column.name in values) && column.notnull && column.dflt_value === null && !column.pk)
      values[column.name] = column.type.toLowerCase() === "integer" ? 1 : "2027-06-12T16:00:00.000Z";
  const names = Object.keys(values);
  sqlite
    .prepare(
      `INSERT INTO ${table} (${names.map((n) => `"${n}"`).join(",")}) VALUES (${names.map(() => "?").join(",")})`,
    )
    .run(...Object.values(values));
}

const open: Database[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

describe("migration 0013: event content in two languages", () => {
  it("keeps every text written before it as the English, the French beside it empty", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ticketing-db-")), "db.sqlite");
    const before = new BetterSqlite3(file);
    migrate(drizzle(before), { migrationsFolder: migrationsBefore("0013_content_in_two_languages") });
    // The rows only need their texts: what they refer to is not what this migration touches.
    before.pragma("foreign_keys = OFF");
    for (const [table, texts] of Object.entries(WRITTEN)) insertRow(before, table, texts);
    const rowsBefore = Object.fromEntries(
      Object.keys(WRITTEN).map((table) => [table, before.prepare(`SELECT * FROM ${table}`).all()]),
    );
    before.close();

    const database = createDatabase({ url: `file:${file}`, driver: "better-sqlite3" });
    open.push(database);
    await database.migrate();

    const after = new BetterSqlite3(file, { readonly: true });
    try {
      const added: string[] = [];
      for (const [table, texts] of Object.entries(WRITTEN)) {
        const [row] = after.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
        const [old] = rowsBefore[table] as Record<string, unknown>[];
        // Nothing written before changed, nothing was lost.
        for (const [column, value] of Object.entries(old ?? {}))
          expect(row?.[column], `${table}.${column}`).toEqual(value);
        for (const column of Object.keys(row ?? {}).filter((c) => !(c in (old ?? {})))) {
          added.push(`${table}.${column}`);
          expect(column, `${table}.${column}`).toMatch(/_fr(_json)?$/);
          expect(row?.[column] ?? "", `${table}.${column}`).toBe("");
        }
        // A French buyer reads each text as written: the English, until its French is written.
        for (const [column, text] of Object.entries(texts)) {
          if (column.endsWith("_json")) continue;
          expect(inLanguage(row?.[column] as string, row?.[`${column}_fr`] as string, "fr")).toBe(text);
        }
      }
      expect(added.sort()).toEqual(
        Object.entries(WRITTEN)
          .flatMap(([table, texts]) =>
            Object.keys(texts).map((column) =>
              column.endsWith("_json") ? `${table}.${column.replace(/_json$/, "_fr_json")}` : `${table}.${column}_fr`,
            ),
          )
          .sort(),
      );
    } finally {
      after.close();
    }
  });
});

// The participants' export (issue 13, docs/decisions/0011-exports.md): one row per sold article with its options,
// price and a column per form field, the answers to a field deleted since kept.
import { eq, run, schema } from "@ticketing/db";
import type ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { BILLING, DRIVERS, FRENCH, jsonParam, signedInUser } from "../../../test-support.ts";
import { MONEY_FORMAT } from "./engine.ts";
import { type Sale, useExportsSale } from "./exports.fixtures.ts";

describe.each(DRIVERS)("exports (%s)", (driver) => {
  const { ctx, state, fields, baskets, csv, xlsx } = useExportsSale(driver);
  let sale: Sale;
  let staff: string;
  beforeAll(() => {
    ({ sale, staff } = state);
  });

  describe("participants", () => {
    it("writes one row per sold article with its options, price and a column per form field", async () => {
      const file = await csv(`/exports/participants?format=csv&filter=${jsonParam({ event_id: sale.event.id })}`);
      expect(file.header).toEqual([
        "Article line",
        "Basket",
        "Basket reference",
        "Article",
        "Article (French)",
        "Options",
        "Options (French)",
        "Price (CHF)",
        "Buyer's first name",
        "Buyer's last name",
        "Buyer's email",
        "Ordered",
        "Attendee / Name on badge",
        "Attendee / Age",
        "Attendee / Vegetarian",
      ]);
      // The paid basket's two articles; not the paying, refunded, testing or empty baskets'.
      expect(file.rows.map((row) => Number(row[1]))).toEqual([baskets.ada, baskets.ada]);
      const [first, second] = file.rows as [string[], string[]];
      expect(first.slice(3, 11)).toEqual([
        "Entry",
        "",
        "T-shirt",
        "",
        "50.00",
        "Zoé",
        BILLING.last_name,
        BILLING.email,
      ]);
      expect(first.slice(12)).toEqual(["Zoé L.", "36", "Yes"]);
      expect(second.slice(3, 8)).toEqual(["Entry", "", "", "", "45.00"]);
      expect(second.slice(12)).toEqual(["'-Charles", "41", "No"]);
      expect(file.response.headers.get("content-disposition")).toContain(
        `filename="participants-${sale.event.frontendPath}-`,
      );

      const sheet = await xlsx(`/exports/participants?format=xlsx&event_id=${sale.event.id}`, staff, FRENCH);
      expect(sheet.header.slice(0, 2)).toEqual(["Ligne d'article", "Panier"]);
      expect(sheet.header.slice(3, 7)).toEqual(["Article", "Article (français)", "Options", "Options (français)"]);
      expect(sheet.header.slice(12)).toEqual(["Attendee / Name on badge", "Attendee / Age", "Attendee / Vegetarian"]);
      const row = sheet.rows[0] as ExcelJS.Row;
      expect(row.getCell(8).value).toBe(50);
      expect(row.getCell(8).numFmt).toBe(MONEY_FORMAT);
      expect(row.getCell(14).value).toBe(36);
      expect(row.getCell(15).value).toBe("Oui");
      expect(sheet.rows[1]?.getCell(13).value).toBe("'-Charles");
    });

    it("exports testing articles only with preview=true", async () => {
      const preview = await csv(`/exports/participants?format=csv&event_id=${sale.event.id}&preview=true`);
      expect(preview.rows.map((row) => Number(row[1]))).toEqual([baskets.testing]);
      // An unticked box is stored as "false".
      expect(preview.rows[0]?.slice(12)).toEqual(["Tess", "3", "No"]);
    });

    it("carries the French titles as added beside the English ones (issue 34)", async () => {
      const { selectedNodes } = schema;
      await ctx.database.transaction(function* (tx) {
        yield* run(
          tx.update(selectedNodes).set({ titleFr: "Entrée" }).where(eq(selectedNodes.basketId, baskets.ada)).run(),
        );
        yield* run(tx.update(selectedNodes).set({ titleFr: "" }).where(eq(selectedNodes.title, "T-shirt")).run());
      });
      const file = await csv(`/exports/participants?format=csv&event_id=${sale.event.id}`);
      const [first] = file.rows as [string[]];
      // The option has no French: its column stays empty, as the article's does where none is written.
      expect(first.slice(3, 7)).toEqual(["Entry", "Entrée", "T-shirt", ""]);
      await ctx.database.transaction(function* (tx) {
        yield* run(
          tx.update(selectedNodes).set({ titleFr: "Maillot" }).where(eq(selectedNodes.title, "T-shirt")).run(),
        );
      });
      const again = await csv(`/exports/participants?format=csv&event_id=${sale.event.id}`);
      expect(again.rows[0]?.slice(3, 7)).toEqual(["Entry", "Entrée", "T-shirt", "Maillot"]);
    });

    it("needs one event the caller may see", async () => {
      const none = await ctx.call("GET", "/exports/participants?format=csv", { token: staff });
      expect(none.status).toBe(400);
      expect(none.body.errors).toEqual(['Choose the event: filter={"event":1}']);
      const outsider = await signedInUser(ctx, "outsider");
      const refused = await ctx.call("GET", `/exports/participants?format=xlsx&event_id=${sale.event.id}`, {
        token: outsider.token,
      });
      expect(refused.status).toBe(404);
    });
  });

  describe("participants' answers to a field deleted since", () => {
    it("keeps them, in a column of the field's names after the event's fields", async () => {
      await ctx.database.transaction(function* (tx) {
        yield* run(tx.delete(schema.nodeExtraInfos).where(eq(schema.nodeExtraInfos.id, fields.age)).run());
      });
      const file = await csv(`/exports/participants?format=csv&event_id=${sale.event.id}`);
      expect(file.header.slice(12)).toEqual(["Attendee / Name on badge", "Attendee / Vegetarian", "Attendee / Age"]);
      expect(file.rows.map((row) => row.slice(12))).toEqual([
        ["Zoé L.", "Yes", "36"],
        ["'-Charles", "No", "41"],
      ]);
    });
  });
});

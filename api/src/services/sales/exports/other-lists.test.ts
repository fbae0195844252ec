// The invoices', events', memberships' and stocks' exports (issue 13, docs/decisions/0011-exports.md): signed
// amounts, chosen columns, never a secret or a password hash, the stocks table as the API answers it.
import { eq, run, schema } from "@ticketing/db";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, FRENCH, jsonParam, signedInUser, writeEventRow } from "../../../test-support.ts";
import { FORMULA, type Sale, useExportsSale } from "./exports.fixtures.ts";

describe.each(DRIVERS)("exports (%s)", (driver) => {
  const { ctx, state, baskets, csv, xlsx, allText } = useExportsSale(driver);
  let sale: Sale;
  let staff: string;
  beforeAll(() => {
    ({ sale, staff } = state);
  });

  describe("invoices", () => {
    it("writes the list's invoices and credit notes: numbers, kinds, signed amounts, statuses", async () => {
      const filter = jsonParam({ event_id: sale.event.id });
      const sort = jsonParam(["number", "ASC"]);
      const listed = await ctx.call("GET", `/invoices?filter=${filter}&sort=${sort}`, { token: staff });
      const file = await csv(`/exports/invoices?format=csv&filter=${filter}&sort=${sort}`);
      expect(file.rows.map((row) => row[0])).toEqual(
        listed.body.map((row: { display_number: string }) => row.display_number),
      );
      const byBasket = (reference: string) => file.rows.filter((row) => row[2] === reference);
      const goneReference = listed.body.find((row: { basket_id: number }) => row.basket_id === baskets.gone)
        .basket_reference as string;
      const [invoice, creditNote] = byBasket(goneReference) as [string[], string[]];
      expect(invoice.slice(1, 6)).toEqual(["Invoice", goneReference, "Ada Lovelace", "45.00", "Paid"]);
      expect(creditNote.slice(1, 6)).toEqual(["Credit note", goneReference, "Ada Lovelace", "-45.00", "Paid"]);
      expect(creditNote[9]).toBe("'=cmd|' /C calc'!A0");
      const evilReference = listed.body.find((row: { basket_id: number }) => row.basket_id === baskets.evil)
        .basket_reference as string;
      expect(byBasket(evilReference)[0]?.slice(3, 6)).toEqual([`'${FORMULA} +Plus`, "45.00", "Pending"]);

      const sheet = await xlsx(`/exports/invoices?format=xlsx&filter=${filter}&sort=${sort}`, staff, FRENCH);
      const note = sheet.rows.find((row) => row.getCell(2).value === "Note de crédit") as ExcelJS.Row;
      expect(note.getCell(5).value).toBe(-45);
      expect(note.getCell(5).type).toBe(ExcelJS.ValueType.Number);
      expect(note.getCell(6).value).toBe("Payée");
      expect(note.getCell(7).type).toBe(ExcelJS.ValueType.Date);

      const preview = await csv(
        `/exports/invoices?format=csv&filter=${jsonParam({ event_id: sale.event.id, preview: true })}`,
      );
      expect(preview.rows.map((row) => row[0])).toEqual(["TEST-1"]);
    });
  });

  describe("events", () => {
    it("writes chosen columns: never a third-party secret key, a title's formula inert", async () => {
      const secret = "s3cr3t-third-party-key-0123456789";
      await ctx.database.transaction(function* (tx) {
        yield* run(
          tx
            .insert(schema.eventAccessMethods)
            .values({ eventId: sale.event.id, method: "third_party", secretKey: secret })
            .run(),
        );
      });
      await writeEventRow(ctx, sale.event.id, {
        frontendTitle: "=1+2",
        frontendTitleFr: "Bal d'hiver",
        registrationsStartDate: "2030-01-01",
      });
      const list = await ctx.call("GET", `/events?filter=${jsonParam({ unit_id: sale.event.unitId })}`, {
        token: staff,
      });
      expect(list.body[0].third_party_secret_key).toBe(secret);
      const path = `/exports/events?filter=${jsonParam({ unit_id: sale.event.unitId })}`;
      const file = await csv(`${path}&format=csv`);
      expect(file.text).not.toContain(secret);
      expect(file.rows).toHaveLength(1);
      expect(file.rows[0]).toEqual([
        String(sale.event.id),
        sale.event.name,
        "'=1+2",
        // The French public title beside the English (issue 34).
        "Bal d'hiver",
        sale.event.frontendPath,
        "Public",
        "Validated",
        "2030-01-01 11:00:00+01:00",
        "2030-01-01 21:00:00+01:00",
        "2030-01-01",
        "",
        "",
        "",
        expect.any(String),
      ]);
      const sheet = await xlsx(`${path}&format=xlsx`);
      expect(allText(sheet.sheet)).not.toContain(secret);
      const row = sheet.rows[0] as ExcelJS.Row;
      expect(row.getCell(3).value).toBe("'=1+2");
      expect(row.getCell(4).value).toBe("Bal d'hiver");
      expect(sheet.header.slice(2, 4)).toEqual(["Public title", "Public title (French)"]);
      expect(row.getCell(8).value).toEqual(new Date("2030-01-01T11:00:00.000Z"));
      expect(row.getCell(10).value).toEqual(new Date("2030-01-01T00:00:00.000Z"));
      expect(row.getCell(10).numFmt).toBe("yyyy-mm-dd");

      const outsider = await signedInUser(ctx, "outsider");
      const refused = await ctx.call("GET", `${path}&format=csv`, { token: outsider.token });
      expect(refused.status).toBe(404);
      expect((await csv("/exports/events?format=csv", outsider.token)).rows).toEqual([]);
    });
  });

  describe("memberships", () => {
    it("writes the unit's members with their role, never a password hash", async () => {
      const owner = await ctx.database.db.select().from(schema.users).where(eq(schema.users.email, sale.email)).get();
      const path = `/exports/memberships?filter=${jsonParam({ unit_id: sale.event.unitId })}`;
      const file = await csv(`${path}&format=csv`, staff, FRENCH);
      expect(file.header).toEqual(["Unité", "E-mail", "Prénom", "Nom", "Rôle", "Membre depuis"]);
      expect(file.rows.map((row) => [row[1], row[4]])).toContainEqual([sale.email, "Propriétaire"]);
      expect(file.text).not.toContain(owner?.passwordHash);
      const sheet = await xlsx(`${path}&format=xlsx`);
      expect(allText(sheet.sheet)).not.toContain(owner?.passwordHash);
      expect(sheet.rows.map((row) => row.getCell(5).value)).toContain("Owner");
      const outsider = await signedInUser(ctx, "outsider");
      expect((await ctx.call("GET", `${path}&format=csv`, { token: outsider.token })).status).toBe(404);
    });
  });

  describe("stocks", () => {
    it("writes the stocks table as GET /events/:id/stocks answers it", async () => {
      const table = await ctx.call("GET", `/events/${sale.event.id}/stocks`, { token: staff });
      expect(table.status).toBe(200);
      const file = await csv(`/exports/stocks?format=csv&event_id=${sale.event.id}`);
      expect(file.header).toEqual([
        "Id",
        "Title",
        "Path",
        "Total",
        "New",
        "Payment in progress",
        "Validated",
        "Reserved",
        "Refunded",
        "Remaining",
      ]);
      const text = (value: number | string | null | undefined) => (value === null ? "" : String(value));
      expect(file.rows).toEqual(
        table.body.rows.map((row: Record<string, number | string | null>) =>
          [
            row.id,
            row.title,
            row.root_path,
            row.total,
            row.new,
            row.payment_in_progress,
            row.validated,
            row.reserved,
            row.refunded,
            row.remaining,
          ].map(text),
        ),
      );
      const entry = file.rows.find((row) => row[1] === "Entry") as string[];
      // New, payment in progress (evil), validated (ada's two), reserved, refunded (gone).
      expect(entry.slice(4, 9)).toEqual(["0", "1", "2", entry[7], "1"]);
      const sheet = await xlsx(`/exports/stocks?format=xlsx&event_id=${sale.event.id}&preview=true`);
      const testing = sheet.rows.find((row) => row.getCell(2).value === "Entry") as ExcelJS.Row;
      expect(testing.getCell(7).value).toBe(1);
      expect(testing.getCell(7).type).toBe(ExcelJS.ValueType.Number);
      expect((await ctx.call("GET", "/exports/stocks?format=csv", { token: staff })).status).toBe(400);
    });
  });
});

// The back office's exports (issue 13, docs/decisions/0011-exports.md): every list as csv and xlsx, read back as a
// person's spreadsheet would read them — the list's rows in its order, typed cells, headers in their language,
// formulas inert, no secret, the list's permissions.
// The participants' list is in participants.test.ts; invoices, events, memberships and stocks in other-lists.test.ts.
import { eq, run, schema } from "@ticketing/db";
import en from "@ticketing/shared/i18n/en/export.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/export.json" with { type: "json" };
import { keyPaths } from "@ticketing/shared/i18n/translate";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  BILLING,
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  download,
  FRENCH,
  jsonParam,
  loginAs,
  signedInMember,
  signedInUser,
} from "../../../test-support.ts";
import { MONEY_FORMAT, swissMoment } from "./engine.ts";
import { FORMULA, type Sale, useExportsSale } from "./exports.fixtures.ts";

describe("export texts", () => {
  it("has the same keys in English and French", () => {
    expect(keyPaths(fr).sort()).toEqual(keyPaths(en).sort());
  });
});

describe.each(DRIVERS)("exports (%s)", (driver) => {
  const { ctx, state, baskets, csv, xlsx } = useExportsSale(driver);
  let sale: Sale;
  let staff: string;
  beforeAll(() => {
    ({ sale, staff } = state);
  });

  describe("baskets", () => {
    it("writes the list's rows in its order as csv: BOM, CRLF, amounts as decimals, times in Swiss time", async () => {
      const sort = jsonParam(["created_at", "DESC"]);
      const filter = jsonParam({ event_id: sale.event.id });
      const list = await ctx.call("GET", `/baskets?filter=${filter}&sort=${sort}&range=[0,1]`, { token: staff });
      const listed = await ctx.call("GET", `/baskets?filter=${filter}&sort=${sort}`, { token: staff });
      expect(list.status).toBe(200);
      const file = await csv(`/exports/baskets?format=csv&filter=${filter}&sort=${sort}&range=[0,1]`);
      // Every row (the range is ignored), in the list's order, and nothing but the list's rows.
      expect(file.rows.map((row) => Number(row[0]))).toEqual(listed.body.map((row: { id: number }) => row.id));
      expect(file.rows).toHaveLength(4);
      expect(file.text.split("\r\n")).toHaveLength(6);
      expect(file.text.replace(/\r\n/g, "")).not.toContain("\n");
      expect(file.header).toEqual([
        "Id",
        "Reference",
        "Status",
        "Created",
        "First name",
        "Last name",
        "Email",
        "Address",
        "Postal code",
        "City",
        "Country",
        "Articles",
        "Total (CHF)",
        "Language",
      ]);
      const ada = file.rows.find((row) => Number(row[0]) === baskets.ada) as string[];
      const adaListed = listed.body.find((row: { id: number }) => row.id === baskets.ada);
      expect(ada).toEqual([
        String(baskets.ada),
        adaListed.unikey,
        "Validated",
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+0[12]:00$/),
        "Zoé",
        BILLING.last_name,
        BILLING.email,
        BILLING.address,
        BILLING.postal_code,
        BILLING.city,
        BILLING.country,
        "2",
        "95.00",
        "en",
      ]);
      // The moment written is the basket's, in Swiss time with its offset.
      expect(Date.parse((ada[3] as string).replace(" ", "T"))).toBe(
        Math.floor(Date.parse(adaListed.created_at) / 1000) * 1000,
      );
      expect(adaListed.total).toBe(9500);
      const empty = file.rows.find((row) => Number(row[0]) === baskets.empty) as string[];
      expect(empty.slice(2, 13)).toEqual(["New", empty[3], "", "", "", "", "", "", "", "0", "0.00"]);

      const today = swissMoment(new Date().toISOString())?.text.slice(0, 10);
      expect(file.response.headers.get("content-disposition")).toBe(
        `attachment; filename="baskets-${sale.event.frontendPath}-${today}.csv"`,
      );
    });

    it("writes typed cells in xlsx: amounts in CHF, dates, a bold frozen header in French", async () => {
      const filter = jsonParam({ event_id: sale.event.id });
      const listed = await ctx.call("GET", `/baskets?filter=${filter}`, { token: staff });
      const file = await xlsx(`/exports/baskets?format=xlsx&filter=${filter}`, staff, FRENCH);
      expect(file.response.headers.get("content-disposition")).toMatch(
        new RegExp(`^attachment; filename="baskets-${sale.event.frontendPath}-\\d{4}-\\d\\d-\\d\\d\\.xlsx"$`),
      );
      expect(file.sheet.name).toBe("Paniers");
      expect(file.header).toEqual([
        "Id",
        "Référence",
        "Statut",
        "Créé le",
        "Prénom",
        "Nom",
        "E-mail",
        "Adresse",
        "NPA",
        "Localité",
        "Pays",
        "Articles",
        "Total (CHF)",
        "Langue",
      ]);
      expect(file.sheet.getRow(1).getCell(1).font?.bold).toBe(true);
      expect(file.sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
      expect(file.sheet.getColumn(7).width).toBeGreaterThanOrEqual(20);
      expect(file.rows.map((row) => row.getCell(1).value)).toEqual(listed.body.map((row: { id: number }) => row.id));

      const ada = file.rows.find((row) => row.getCell(1).value === baskets.ada) as ExcelJS.Row;
      expect(ada.getCell(3).value).toBe("Validé");
      expect(ada.getCell(5).value).toBe("Zoé");
      expect(ada.getCell(12).type).toBe(ExcelJS.ValueType.Number);
      expect(ada.getCell(12).value).toBe(2);
      const total = ada.getCell(13);
      expect(total.type).toBe(ExcelJS.ValueType.Number);
      expect(total.value).toBe(95);
      expect(total.numFmt).toBe(MONEY_FORMAT);
      const created = ada.getCell(4);
      expect(created.type).toBe(ExcelJS.ValueType.Date);
      // The cell shows the Swiss wall-clock time the csv writes.
      const adaListed = listed.body.find((row: { id: number }) => row.id === baskets.ada);
      expect(created.value).toEqual(swissMoment(adaListed.created_at)?.wall);
    });

    it("writes a buyer's formula as inert text in both formats", async () => {
      const filter = jsonParam({ event_id: sale.event.id, id: [baskets.evil] });
      const text = await csv(`/exports/baskets?format=csv&filter=${filter}`);
      expect(text.rows).toHaveLength(1);
      expect(text.rows[0]?.[4]).toBe(`'${FORMULA}`);
      expect(text.rows[0]?.[5]).toBe("'+Plus");
      expect(text.text).toContain(`"'=HYPERLINK(""http://x"")"`);
      const sheet = await xlsx(`/exports/baskets?format=xlsx&filter=${filter}`);
      const name = sheet.rows[0]?.getCell(5) as ExcelJS.Cell;
      expect(name.type).toBe(ExcelJS.ValueType.String);
      expect(name.value).toBe(`'${FORMULA}`);
      expect(name.formula).toBeUndefined();
      expect(sheet.rows[0]?.getCell(6).value).toBe("'+Plus");
    });

    it("exports testing baskets only with preview=true, and real ones only otherwise", async () => {
      const real = await csv(`/exports/baskets?format=csv&filter=${jsonParam({ event_id: sale.event.id })}`);
      expect(real.rows.map((row) => Number(row[0]))).not.toContain(baskets.testing);
      const preview = await csv(`/exports/baskets?format=csv&event_id=${sale.event.id}&preview=true`);
      expect(preview.rows.map((row) => Number(row[0]))).toEqual([baskets.testing]);
      expect(preview.response.headers.get("content-disposition")).toContain(`-${sale.event.frontendPath}-preview-`);
      const previewXlsx = await xlsx(
        `/exports/baskets?format=xlsx&filter=${jsonParam({ event: sale.event.id, preview: true })}`,
      );
      expect(previewXlsx.rows.map((row) => row.getCell(1).value)).toEqual([baskets.testing]);
    });

    it("gives an outsider 404 for another unit's event, a member of the unit the file", async () => {
      const path = `/exports/baskets?format=csv&filter=${jsonParam({ event_id: sale.event.id })}`;
      const outsider = await signedInUser(ctx, "outsider");
      const refused = await download(ctx, path, outsider.token);
      expect(refused.status).toBe(404);
      expect(refused.headers.get("content-type")).toContain("application/json");
      expect((await refused.json()).errors).toEqual(["Event not found"]);
      // Without an event filter, the outsider's file holds none of the event's baskets.
      const own = await csv("/exports/baskets?format=csv", outsider.token);
      expect(own.rows).toEqual([]);
      expect((await download(ctx, path, undefined)).status).toBe(401);
      const member = await signedInMember(ctx, sale.event.unitId);
      expect((await csv(path, member.token)).rows).toHaveLength(4);
    });

    it("refuses a missing or unknown format, an unknown list and a bad filter before writing anything", async () => {
      const filter = jsonParam({ event_id: sale.event.id });
      const noFormat = await ctx.call("GET", `/exports/baskets?filter=${filter}`, { token: staff });
      expect(noFormat.status).toBe(400);
      expect(noFormat.body.errors).toEqual(["format: Must be one of: csv, xlsx"]);
      expect((await ctx.call("GET", `/exports/baskets?format=pdf`, { token: staff })).status).toBe(400);
      const unknown = await ctx.call("GET", "/exports/tickets?format=csv", { token: staff, headers: FRENCH });
      expect(unknown.status).toBe(404);
      expect(unknown.body.errors).toEqual([
        "Aucune liste ne s'exporte sous ce nom : choisissez parmi events, baskets, participants, invoices, stocks, memberships, check-ins, waiting-list",
      ]);
      const badStatus = await ctx.call("GET", `/exports/baskets?format=xlsx&status=lost`, { token: staff });
      expect(badStatus.status).toBe(400);
      const badSort = await ctx.call("GET", `/exports/baskets?format=csv&sort=${jsonParam(["total", "ASC"])}`, {
        token: staff,
      });
      expect(badSort.status).toBe(400);
    });
  });

  describe("an event with more baskets than one batch", () => {
    it("writes each basket once, in the order asked, across batches of ties", async () => {
      const large = await createOnSaleEvent(ctx, { stock: 10 });
      const token = await loginAs(ctx, large.email, large.password);
      const { loginId } = await createBuyer(ctx, large.event.id, large.moduleId);
      const statuses = ["new", "validated", "refunded"] as const;
      await ctx.database.transaction(function* (tx) {
        for (let index = 0; index < 1_200; index++)
          yield* run(
            tx
              .insert(schema.baskets)
              .values({
                eventId: large.event.id,
                createdById: loginId,
                status: statuses[index % 3],
                unikey: `BULK${large.event.id}-${index}`,
                expiresAt: "2030-01-01T00:00:00.000Z",
              })
              .run(),
          );
      });
      const rows = await ctx.database.db
        .select({ id: schema.baskets.id, status: schema.baskets.status })
        .from(schema.baskets)
        .where(eq(schema.baskets.eventId, large.event.id))
        .all();
      // The list's order, ties by id in the same direction.
      const expected = rows
        .sort((a, b) => (a.status === b.status ? b.id - a.id : a.status < b.status ? 1 : -1))
        .map((row) => row.id);
      const path = `/exports/baskets?event_id=${large.event.id}&sort=${jsonParam(["status", "DESC"])}`;
      const file = await csv(`${path}&format=csv`, token);
      expect(file.rows.map((row) => Number(row[0]))).toEqual(expected);
      const sheet = await xlsx(`${path}&format=xlsx`, token);
      expect(sheet.rows.map((row) => row.getCell(1).value)).toEqual(expected);
    });
  });
});

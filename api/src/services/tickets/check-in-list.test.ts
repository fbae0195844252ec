// The door's list (issue 17, docs/decisions/0027-ticket-check-in.md): one row per ticket sold, filtered, sorted and
// paged, agreeing with the figures; its export as csv and xlsx, read in batches, for staff of the event's unit.
import { eq, schema } from "@ticketing/db";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { DRIVERS, download, FRENCH, jsonParam, signedInUser } from "../../test-support.ts";
import { swissMoment } from "../sales/exports/engine.ts";
import { useCheckInDoor } from "./check-ins.fixtures.ts";
import { addArticles } from "./tickets.fixtures.ts";

describe.each(DRIVERS)("ticket check-in (%s)", (driver) => {
  const { ctx, event, order, scan, counts } = useCheckInDoor(driver);

  it("lists one row per ticket sold, filtered by check-in and text, sorted and paged, matching the counts", async () => {
    const { sale, staff } = await event();
    const ada = await order(sale, { count: 2 });
    const grace = await order(sale, { count: 1, lastName: "Hopper" });
    await order(sale, { pay: false });
    await scan(sale.event.id, staff, ada.codes[1] as string);
    await scan(sale.event.id, staff, grace.codes[0] as string);
    const list = async (query: string) => {
      const answer = await ctx.call("GET", `/events/${sale.event.id}/check-ins?${query}`, { token: staff });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer;
    };

    const all = await list(`sort=${jsonParam(["id", "ASC"])}&range=${jsonParam([0, 24])}`);
    expect(all.headers.get("content-range")).toBe("check-ins 0-2/3");
    expect(all.body.map((row: { id: number }) => row.id)).toEqual([...ada.lines, ...grace.lines].map((l) => l.id));
    expect(all.body[1]).toEqual({
      id: ada.lines[1]?.id,
      basket_id: ada.buyer.basketId,
      reference: ada.basket?.unikey,
      title: "Entry",
      holder_name: "Ada Lovelace",
      checked_in_at: expect.any(String),
      checked_in_by_id: expect.any(Number),
      checked_in_by_email: sale.email,
    });
    expect(all.body[0]).toMatchObject({ checked_in_at: null, checked_in_by_id: null, checked_in_by_email: null });

    const figures = await counts(sale.event.id, staff);
    const inside = await list(`filter=${jsonParam({ checked_in: true })}`);
    const outside = await list("checked_in=false");
    expect(figures).toEqual({ sold: all.body.length, checked_in: inside.body.length });
    expect(inside.body.map((row: { id: number }) => row.id)).toEqual([ada.lines[1]?.id, grace.lines[0]?.id]);
    expect(outside.body.map((row: { id: number }) => row.id)).toEqual([ada.lines[0]?.id]);

    expect((await list(`filter=${jsonParam({ q: "hopp" })}`)).body.map((row: { id: number }) => row.id)).toEqual([
      grace.lines[0]?.id,
    ]);
    expect((await list(`q=${grace.basket?.unikey}`)).body).toHaveLength(1);
    const byCheckIn = await list(`sort=${jsonParam(["checked_in_at", "DESC"])}&range=${jsonParam([0, 0])}`);
    expect(byCheckIn.body.map((row: { id: number }) => row.id)).toEqual([grace.lines[0]?.id]);
    expect(byCheckIn.headers.get("content-range")).toBe("check-ins 0-0/3");
    expect((await list(`preview=true`)).body).toEqual([]);

    for (const query of [
      `filter=${jsonParam({ checked_in: "maybe" })}`,
      `sort=${jsonParam(["holder_email", "ASC"])}`,
      "range=[5,1]",
    ]) {
      const bad = await ctx.call("GET", `/events/${sale.event.id}/check-ins?${query}`, { token: staff });
      expect(bad.status, query).toBe(400);
    }
  });

  describe("the export", () => {
    /** A file of the check-in list: csv (its records, past the BOM) or xlsx (its first sheet's rows of values). */
    async function exported(
      query: string,
      format: "csv" | "xlsx",
      token: string,
      headers: Record<string, string> = {},
    ) {
      const response = await download(ctx, `/exports/check-ins?format=${format}&${query}`, token, headers);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.status, bytes.toString()).toBe(200);
      if (format === "csv")
        return {
          response,
          records: bytes
            .subarray(3)
            .toString("utf8")
            .split("\r\n")
            .filter(Boolean)
            .map((line) => line.split(",")),
        };
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      const records: unknown[][] = [];
      workbook.worksheets[0]?.eachRow((row) => {
        records.push((row.values as unknown[]).slice(1));
      });
      return { response, records, sheetName: workbook.worksheets[0]?.name };
    }

    it("writes the list's rows with their check-ins, headers in English or French, csv and xlsx", async () => {
      const { sale, staff } = await event();
      const ada = await order(sale, { count: 2 });
      await scan(sale.event.id, staff, ada.codes[1] as string);
      // The article's French title as added, in its column beside the English (issue 34).
      await ctx.database.db
        .update(schema.selectedNodes)
        .set({ titleFr: "Entrée" })
        .where(eq(schema.selectedNodes.basketId, ada.basket?.id as number));
      const rows = (await ctx.call("GET", `/events/${sale.event.id}/check-ins`, { token: staff })).body;
      const [out, inside] = rows as { id: number; checked_in_at: string }[];

      const english = await exported(`event_id=${sale.event.id}`, "csv", staff);
      expect(english.response.headers.get("content-disposition")).toContain(`check-ins-${sale.event.frontendPath}`);
      const moment = swissMoment(inside?.checked_in_at as string)?.text;
      expect(english.records).toEqual([
        [
          "Ticket",
          "Basket reference",
          "Article",
          "Article (French)",
          "Ticket holder",
          "Checked in",
          "Checked in at",
          "Checked in by",
        ],
        [String(out?.id), ada.basket?.unikey, "Entry", "Entrée", "Ada Lovelace", "No", "", ""],
        [String(inside?.id), ada.basket?.unikey, "Entry", "Entrée", "Ada Lovelace", "Yes", moment, sale.email],
      ]);
      const french = await exported(
        `filter=${jsonParam({ event_id: sale.event.id, checked_in: true })}`,
        "csv",
        staff,
        FRENCH,
      );
      expect(french.records).toEqual([
        [
          "Billet",
          "Référence du panier",
          "Article",
          "Article (français)",
          "Titulaire du billet",
          "Entré",
          "Entré le",
          "Contrôlé par",
        ],
        [String(inside?.id), ada.basket?.unikey, "Entry", "Entrée", "Ada Lovelace", "Oui", moment, sale.email],
      ]);

      const sheet = await exported(`event_id=${sale.event.id}&checked_in=false`, "xlsx", staff, FRENCH);
      expect(sheet.sheetName).toBe("Entrées");
      expect(sheet.records[0]?.[0]).toBe("Billet");
      expect(sheet.records.slice(1)).toEqual([[out?.id, ada.basket?.unikey, "Entry", "Entrée", "Ada Lovelace", "Non"]]);
    });

    it("reads every row in batches whatever the order, even sorted by a check-in most tickets do not have", async () => {
      const { sale, staff } = await event();
      const { buyer, codes } = await order(sale);
      await addArticles(ctx.database, buyer.basketId, 520);
      await scan(sale.event.id, staff, codes[0] as string);
      const sorted = jsonParam(["checked_in_at", "DESC"]);
      const file = await exported(`event_id=${sale.event.id}&sort=${sorted}`, "csv", staff);
      const ids = file.records.slice(1).map((record) => record[0]);
      expect(ids).toHaveLength(521);
      expect(new Set(ids).size).toBe(521);
      // The one checked in first, then the others by id going down, as the list orders them.
      const list = await ctx.call("GET", `/events/${sale.event.id}/check-ins?sort=${sorted}`, { token: staff });
      expect(ids).toEqual(list.body.map((row: { id: number }) => String(row.id)));
    });

    it("is refused without the event, or for an event the caller may not see", async () => {
      const { sale, staff } = await event();
      const stranger = await signedInUser(ctx, "stranger");
      expect((await download(ctx, "/exports/check-ins?format=csv", staff)).status).toBe(400);
      expect(
        (await download(ctx, `/exports/check-ins?format=csv&event_id=${sale.event.id}`, stranger.token)).status,
      ).toBe(404);
      expect((await download(ctx, `/exports/check-ins?format=csv&event_id=${sale.event.id}`)).status).toBe(401);
    });
  });
});

// The waiting list's export (issue 31): one row per entry in order of joining, the waiting ones with their position,
// as csv and xlsx, headers and states in the caller's language; for staff who see the event, which must be named.
import { and, eq, schema } from "@ticketing/db";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { DRIVERS, download, FRENCH, jsonParam, signedInUser, useTestContext } from "../../../test-support.ts";
import { expireHolds, listedSale } from "../../waiting-list/organiser.fixtures.ts";

describe.each(DRIVERS)("the waiting list's export (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("writes one row per entry in line, as csv and xlsx, in English and French, for who sees the event", async () => {
    const sale = await listedSale(ctx, 1, { holding: 1 });
    expect((await sale.put()).status).toBe(200);
    const first = await sale.inLine({ quantity: 1 });
    const second = await sale.inLine({ quantity: 3 });
    await sale.inLine({ testing: true });
    await expireHolds(ctx, [sale.holder.basketId]);
    // The article's French title, written since (issue 34): read from the entries' element, beside the English kept.
    const { nodeConfigurations: configurations, waitingListEntries: entries } = schema;
    await ctx.database.db
      .update(entries)
      .set({ nodeId: sale.article.node.id })
      .where(eq(entries.eventId, sale.event.id));
    await ctx.database.db
      .update(configurations)
      .set({ titleFr: "Entrée" })
      .where(and(eq(configurations.eventId, sale.event.id), eq(configurations.title, "Entry")));
    const filter = (extra: Record<string, unknown> = {}) => jsonParam({ event_id: sale.event.id, ...extra });

    const csv = await download(ctx, `/exports/waiting-list?format=csv&filter=${filter()}`, sale.organiser);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/filename="waiting-list-.*\.csv"/);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean);
    const [header, ...rows] = lines.map((line) => line.split(","));
    expect(header).toEqual([
      "Position",
      "Email",
      "Article",
      "Article (French)",
      "Quantity",
      "State",
      "Offered quantity",
      "Offered at",
      "Offer expires at",
      "Joined at",
    ]);
    expect(rows.map((row) => row.slice(0, 7))).toEqual([
      ["", first.email, "Entry", "Entrée", "1", "Offered", "1"],
      ["1", second.email, "Entry", "Entrée", "3", "Waiting", ""],
    ]);
    expect(rows[0]?.[7]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0[12]:00$/);
    expect(rows[1]?.[9]).toMatch(/^\d{4}-\d{2}-\d{2} /);

    const preview = await download(
      ctx,
      `/exports/waiting-list?format=csv&filter=${filter({ testing: true })}`,
      sale.organiser,
    );
    expect((await preview.text()).split("\r\n").filter(Boolean)).toHaveLength(2);
    const waitingOnly = await download(
      ctx,
      `/exports/waiting-list?format=csv&filter=${filter({ state: "waiting" })}`,
      sale.organiser,
    );
    const waitingRows = (await waitingOnly.text()).split("\r\n").filter(Boolean).slice(1);
    expect(waitingRows.map((line) => line.split(",").slice(0, 2))).toEqual([["1", second.email]]);

    const xlsx = await download(ctx, `/exports/waiting-list?format=xlsx&filter=${filter()}`, sale.organiser, FRENCH);
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.name).toBe("Liste d'attente");
    const values = (index: number) => (sheet.getRow(index).values as ExcelJS.CellValue[]).slice(1);
    expect(values(1).slice(0, 6)).toEqual(["Position", "E-mail", "Article", "Article (français)", "Quantité", "État"]);
    expect(values(2).slice(1, 7)).toEqual([first.email, "Entry", "Entrée", 1, "Offert", 1]);
    expect(values(3).slice(0, 6)).toEqual([1, second.email, "Entry", "Entrée", 3, "En attente"]);
    expect(sheet.getRow(2).getCell(8).type).toBe(ExcelJS.ValueType.Date);

    // The event must be named, be one the caller sees, and the filters hold what they may.
    expect((await download(ctx, "/exports/waiting-list?format=csv", sale.organiser)).status).toBe(400);
    const { token: stranger } = await signedInUser(ctx, "stranger");
    expect((await download(ctx, `/exports/waiting-list?format=csv&filter=${filter()}`, stranger)).status).toBe(404);
    for (const bad of [{ state: "lost" }, { testing: "maybe" }])
      expect(
        (await download(ctx, `/exports/waiting-list?format=csv&filter=${filter(bad)}`, sale.organiser)).status,
      ).toBe(400);
  });
});

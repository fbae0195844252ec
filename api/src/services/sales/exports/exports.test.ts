// The back office's exports (issue 13, docs/decisions/0011-exports.md): every list as csv and xlsx, read back as a
// person's spreadsheet would read them — the list's rows in its order, typed cells, headers in their language,
// formulas inert, no secret, the list's permissions.
import { eq, run, schema } from "@ticketing/db";
import en from "@ticketing/shared/i18n/en/export.json" with { type: "json" };
import fr from "@ticketing/shared/i18n/fr/export.json" with { type: "json" };
import { keyPaths } from "@ticketing/shared/i18n/translate";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  addCatalogueElement,
  BILLING,
  createBuyer,
  createOnSaleEvent,
  DRIVERS,
  download,
  eventResourceCreator,
  FRENCH,
  jsonParam,
  loginAs,
  markPaidByStaff,
  checkOut as postCheckout,
  readyBuyer,
  signedInMember,
  signedInUser,
  useTestContext,
  writeEventRow,
} from "../../../test-support.ts";
import { MONEY_FORMAT, swissMoment } from "./engine.ts";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const FORMULA = '=HYPERLINK("http://x")';

/** The records of an RFC 4180 csv (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      record.push(field);
      field = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += ch;
  }
  if (field !== "" || record.length > 0) throw new Error("the csv does not end with CRLF");
  return records;
}

type Sale = Awaited<ReturnType<typeof createOnSaleEvent>>;
type Buyer = { token: string; basketId: number };

describe("export texts", () => {
  it("has the same keys in English and French", () => {
    expect(keyPaths(fr).sort()).toEqual(keyPaths(en).sort());
  });
});

describe.each(DRIVERS)("exports (%s)", (driver) => {
  const ctx = useTestContext(driver);
  let sale: Sale;
  let staff: string;
  let optionNodeId: number;
  const fields = { badge: 0, age: 0, vegetarian: 0 };
  /** ada: two articles (the first with a T-shirt) paid; evil: a formula as name, paying; gone: paid then refunded. */
  const baskets = { ada: 0, evil: 0, gone: 0, testing: 0, empty: 0 };
  const items: number[] = [];

  /** A csv export: its bytes start with the BOM, its records parsed. */
  async function csv(path: string, token = staff, headers: Record<string, string> = {}) {
    const response = await download(ctx, path, token, headers);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status, bytes.toString()).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    const [header = [], ...rows] = parseCsv(text);
    return { response, text, header, rows };
  }

  /** An xlsx export read back with exceljs: the first sheet, its header and rows as cells. */
  async function xlsx(path: string, token = staff, headers: Record<string, string> = {}) {
    const response = await download(ctx, path, token, headers);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status, bytes.toString()).toBe(200);
    expect(response.headers.get("content-type")).toBe(XLSX_TYPE);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const rows: ExcelJS.Row[] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) rows.push(row);
    });
    const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1);
    return { response, sheet, header, rows };
  }

  /** Every text a workbook holds, to look for what must not be in it. */
  const allText = (sheet: ExcelJS.Worksheet) => {
    const texts: string[] = [];
    sheet.eachRow((row) => {
      row.eachCell((cell) => {
        texts.push(String(cell.value));
      });
    });
    return texts.join("\n");
  };

  const buy = (
    options: { count?: number; billing?: Partial<typeof BILLING>; previewBy?: string; withOption?: boolean } = {},
  ): Promise<Buyer> => readyBuyer(ctx, sale, { ...options, firstOptions: options.withOption ? [optionNodeId] : [] });

  /** Answers the forms of each of the basket's articles with `answer(index)`. */
  async function answer(shopper: Buyer, answers: (index: number) => Record<keyof typeof fields, string>) {
    const forms = await ctx.call("GET", `/frontend/baskets/${shopper.basketId}/forms`, { token: shopper.token });
    const ids = forms.body.map((entry: { item_id: number }) => entry.item_id) as number[];
    for (const [index, itemId] of ids.entries()) {
      const given = answers(index);
      const saved = await ctx.call("PUT", `/frontend/selected-nodes/${itemId}/extra-infos`, {
        token: shopper.token,
        body: {
          answers: (Object.keys(fields) as (keyof typeof fields)[]).map((key) => ({
            extra_info_id: fields[key],
            value: given[key],
          })),
        },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      items.push(itemId);
    }
    return ids;
  }

  /** Checks out at the point of sale and, unless told, marks the invoice paid: the basket is validated. */
  async function checkOut(shopper: Buyer, paid = true) {
    const checkout = await postCheckout(ctx, shopper, "point_of_sale");
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    if (paid) await markPaidByStaff(ctx, staff, checkout.body.invoice.id);
  }

  beforeAll(async () => {
    // Forms and options are added while the event is a draft; then it goes on sale.
    sale = await createOnSaleEvent(ctx, { stock: 100, price: 4500, status: "draft" });
    staff = await loginAs(ctx, sale.email, sale.password);
    const create = eventResourceCreator(ctx, staff, sale.event.id);
    const shirt = await addCatalogueElement(create, {
      parentId: sale.article.node.id,
      category: "option",
      title: "T-shirt",
      price: 500,
    });
    optionNodeId = shirt.node;
    const group = await create("node-extra-info-groups", {
      name: "Attendee",
      node_configuration_ids: [sale.article.configuration.id],
    });
    fields.badge = await create("node-extra-infos", { group_id: group, name: "Name on badge", type: "text", order: 0 });
    fields.age = await create("node-extra-infos", { group_id: group, name: "Age", type: "numerical", order: 1 });
    fields.vegetarian = await create("node-extra-infos", {
      group_id: group,
      name: "Vegetarian",
      type: "boolean",
      order: 2,
    });
    await writeEventRow(ctx, sale.event.id, {
      status: "public",
      moderationStatus: "validated",
      isPointOfSaleEnabled: true,
    });

    const ada = await buy({ count: 2, withOption: true, billing: { first_name: "Zoé" } });
    await answer(ada, (index) =>
      index === 0
        ? { badge: "Zoé L.", age: "36", vegetarian: "true" }
        : { badge: "-Charles", age: "41", vegetarian: "false" },
    );
    await checkOut(ada);
    const evil = await buy({ billing: { first_name: FORMULA, last_name: "+Plus" } });
    await answer(evil, () => ({ badge: "Evil", age: "1", vegetarian: "" }));
    await checkOut(evil, false);
    const gone = await buy();
    await answer(gone, () => ({ badge: "Gone", age: "2", vegetarian: "" }));
    await checkOut(gone);
    const refund = await ctx.call("POST", `/baskets/${gone.basketId}/refunds`, {
      token: staff,
      body: { reason: "=cmd|' /C calc'!A0" },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const testing = await buy({ previewBy: staff, billing: { first_name: "Tess" } });
    await answer(testing, () => ({ badge: "Tess", age: "3", vegetarian: "" }));
    await checkOut(testing);
    const empty = await createBuyer(ctx, sale.event.id, sale.moduleId);
    Object.assign(baskets, {
      ada: ada.basketId,
      evil: evil.basketId,
      gone: gone.basketId,
      testing: testing.basketId,
      empty: empty.basketId,
    });
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
        "Aucune liste ne s'exporte sous ce nom : choisissez parmi events, baskets, participants, invoices, stocks, memberships, check-ins",
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

  describe("participants", () => {
    it("writes one row per sold article with its options, price and a column per form field", async () => {
      const file = await csv(`/exports/participants?format=csv&filter=${jsonParam({ event_id: sale.event.id })}`);
      expect(file.header).toEqual([
        "Article line",
        "Basket",
        "Basket reference",
        "Article",
        "Options",
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
      expect(first.slice(3, 9)).toEqual(["Entry", "T-shirt", "50.00", "Zoé", BILLING.last_name, BILLING.email]);
      expect(first.slice(10)).toEqual(["Zoé L.", "36", "Yes"]);
      expect(second.slice(3, 6)).toEqual(["Entry", "", "45.00"]);
      expect(second.slice(10)).toEqual(["'-Charles", "41", "No"]);
      expect(file.response.headers.get("content-disposition")).toContain(
        `filename="participants-${sale.event.frontendPath}-`,
      );

      const sheet = await xlsx(`/exports/participants?format=xlsx&event_id=${sale.event.id}`, staff, FRENCH);
      expect(sheet.header.slice(0, 2)).toEqual(["Ligne d'article", "Panier"]);
      expect(sheet.header.slice(10)).toEqual(["Attendee / Name on badge", "Attendee / Age", "Attendee / Vegetarian"]);
      const row = sheet.rows[0] as ExcelJS.Row;
      expect(row.getCell(6).value).toBe(50);
      expect(row.getCell(6).numFmt).toBe(MONEY_FORMAT);
      expect(row.getCell(12).value).toBe(36);
      expect(row.getCell(13).value).toBe("Oui");
      expect(sheet.rows[1]?.getCell(11).value).toBe("'-Charles");
    });

    it("exports testing articles only with preview=true", async () => {
      const preview = await csv(`/exports/participants?format=csv&event_id=${sale.event.id}&preview=true`);
      expect(preview.rows.map((row) => Number(row[1]))).toEqual([baskets.testing]);
      // An unticked box is stored as "false".
      expect(preview.rows[0]?.slice(10)).toEqual(["Tess", "3", "No"]);
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
      expect(file.header.slice(10)).toEqual(["Attendee / Name on badge", "Attendee / Vegetarian", "Attendee / Age"]);
      expect(file.rows.map((row) => row.slice(10))).toEqual([
        ["Zoé L.", "Yes", "36"],
        ["'-Charles", "No", "41"],
      ]);
    });
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
      await writeEventRow(ctx, sale.event.id, { frontendTitle: "=1+2", registrationsStartDate: "2030-01-01" });
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
      expect(row.getCell(7).value).toEqual(new Date("2030-01-01T11:00:00.000Z"));
      expect(row.getCell(9).value).toEqual(new Date("2030-01-01T00:00:00.000Z"));
      expect(row.getCell(9).numFmt).toBe("yyyy-mm-dd");

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

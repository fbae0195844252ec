// What the export tests share: one event on sale with an option and a form, baskets in every state (paid with
// answers, paying with a formula as name, refunded, testing, empty), and the csv and xlsx files read back as a
// person's spreadsheet would read them.
import type { Driver } from "@ticketing/db";
import ExcelJS from "exceljs";
import { beforeAll, expect } from "vitest";
import {
  addCatalogueElement,
  type BILLING,
  createBuyer,
  createOnSaleEvent,
  download,
  eventResourceCreator,
  loginAs,
  markPaidByStaff,
  checkOut as postCheckout,
  readyBuyer,
  useTestContext,
  writeEventRow,
} from "../../../test-support.ts";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
export const FORMULA = '=HYPERLINK("http://x")';

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

export type Sale = Awaited<ReturnType<typeof createOnSaleEvent>>;
type Buyer = { token: string; basketId: number };

/** Registers the hooks of a test file's event on `driver`; `state.sale` and `state.staff` are set once `beforeAll`
 * has run. */
export function useExportsSale(driver: Driver) {
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
  const state = {} as { sale: Sale; staff: string };
  beforeAll(() => {
    Object.assign(state, { sale, staff });
  });
  return { ctx, state, fields, baskets, csv, xlsx, allText };
}

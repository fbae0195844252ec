// The baskets list as a file: the same rows as `GET /baskets` with the same filter, in its order, with the buyer's
// billing information and what the basket holds.
import { and, eq, inArray, schema, sql } from "@ticketing/db";
import { BASKET_COLUMNS, basketsWhere } from "../sales.ts";
import { type CellValue, cellsOf, type ExportTable, inBatches, sortKeyOf } from "./engine.ts";
import { type ExportRequest, fileNameOf, filteredEvents, keysetOf } from "./scope.ts";

/** Per basket: its articles still held and their total with options (the list's `registrations_count`, `total`). */
async function contentOf(request: ExportRequest, basketIds: number[]) {
  const { selectedNodes } = schema;
  const rows = await request.db
    .select({
      basketId: selectedNodes.basketId,
      articles: sql<number>`sum(case when ${selectedNodes.isArticle} then 1 else 0 end)`,
      total: sql<number>`sum(${selectedNodes.price})`,
    })
    .from(selectedNodes)
    .where(and(inArray(selectedNodes.basketId, basketIds), eq(selectedNodes.status, "held")))
    .groupBy(selectedNodes.basketId)
    .all();
  return new Map(rows.map((row) => [row.basketId, { articles: Number(row.articles), total: Number(row.total) }]));
}

export async function basketsExport(request: ExportRequest): Promise<ExportTable> {
  const { db, query, t } = request;
  const events = await filteredEvents(request);
  const where = await basketsWhere(db, request.user, query);
  const { baskets, billingInformation: billing } = schema;
  const keyset = keysetOf(query, BASKET_COLUMNS, baskets.id);
  const batches = inBatches(keyset, where, () =>
    db
      .select({
        id: baskets.id,
        sortKey: sortKeyOf(keyset),
        unikey: baskets.unikey,
        status: baskets.status,
        createdAt: baskets.createdAt,
        language: baskets.language,
        firstName: billing.firstName,
        lastName: billing.lastName,
        email: billing.email,
        address: billing.address,
        postalCode: billing.postalCode,
        city: billing.city,
        country: billing.country,
      })
      .from(baskets)
      .leftJoin(billing, eq(billing.id, baskets.billingInformationId))
      .$dynamic(),
  );
  const header = (key: string) => t(`columns.baskets.${key}`);
  return {
    fileName: fileNameOf(request, "baskets", events),
    sheetName: t("sheets.baskets"),
    columns: [
      { header: header("id"), kind: "integer" },
      { header: header("reference"), kind: "text", width: 14 },
      { header: header("status"), kind: "text", width: 20 },
      { header: header("created_at"), kind: "moment" },
      { header: header("first_name"), kind: "text" },
      { header: header("last_name"), kind: "text" },
      { header: header("email"), kind: "text", width: 30 },
      { header: header("address"), kind: "text", width: 30 },
      { header: header("postal_code"), kind: "text", width: 12 },
      { header: header("city"), kind: "text" },
      { header: header("country"), kind: "text", width: 8 },
      { header: header("articles"), kind: "integer" },
      { header: header("total"), kind: "money" },
      { header: header("language"), kind: "text", width: 10 },
    ],
    rows: cellsOf(batches, async (rows) => {
      const content = await contentOf(
        request,
        rows.map((row) => row.id),
      );
      return rows.map((row): CellValue[] => {
        const held = content.get(row.id) ?? { articles: 0, total: 0 };
        return [
          row.id,
          row.unikey,
          t(`values.basket_status.${row.status}`),
          row.createdAt,
          row.firstName,
          row.lastName,
          row.email,
          row.address,
          row.postalCode,
          row.city,
          row.country,
          held.articles,
          held.total,
          row.language,
        ];
      });
    }),
  };
}

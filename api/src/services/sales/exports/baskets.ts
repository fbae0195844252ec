// The baskets list as a file: the same rows as `GET /baskets` with the same filter, in its order, with the buyer's
// billing information and what the basket holds.
import { and, eq, inArray, schema, sql } from "@ticketing/db";
import { BASKET_COLUMNS, basketsWhere } from "../sales.ts";
import { columnsOf, type ExportTable, inBatches, mapBatches, sortKeyOf } from "./engine.ts";
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
  const withContent = mapBatches(batches, async (rows) => {
    const content = await contentOf(
      request,
      rows.map((row) => row.id),
    );
    return rows.map((row) => Object.assign(row, { held: content.get(row.id) ?? { articles: 0, total: 0 } }));
  });
  return {
    fileName: fileNameOf(request, "baskets", events),
    sheetName: t("sheets.baskets"),
    ...columnsOf(
      [
        { header: header("id"), kind: "integer", cell: (row) => row.id },
        { header: header("reference"), kind: "text", width: 14, cell: (row) => row.unikey },
        { header: header("status"), kind: "text", width: 20, cell: (row) => t(`values.basket_status.${row.status}`) },
        { header: header("created_at"), kind: "moment", cell: (row) => row.createdAt },
        { header: header("first_name"), kind: "text", cell: (row) => row.firstName },
        { header: header("last_name"), kind: "text", cell: (row) => row.lastName },
        { header: header("email"), kind: "text", width: 30, cell: (row) => row.email },
        { header: header("address"), kind: "text", width: 30, cell: (row) => row.address },
        { header: header("postal_code"), kind: "text", width: 12, cell: (row) => row.postalCode },
        { header: header("city"), kind: "text", cell: (row) => row.city },
        { header: header("country"), kind: "text", width: 8, cell: (row) => row.country },
        { header: header("articles"), kind: "integer", cell: (row) => row.held.articles },
        { header: header("total"), kind: "money", cell: (row) => row.held.total },
        { header: header("language"), kind: "text", width: 10, cell: (row) => row.language },
      ],
      withContent,
    ),
  };
}

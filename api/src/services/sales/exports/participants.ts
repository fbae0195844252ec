// The participants of an event: one row per article sold (a line still held in a validated basket, or one reopened
// to edit its answers) among the baskets the baskets list shows with the same filter, with its buyer and one
// column per form field of the event holding that article's answer.
import { and, asc, eq, inArray, isNull, schema } from "@ticketing/db";
import { SOLD_BASKET_STATUSES } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import type { ListOptions } from "../../../lib/list-query.ts";
import { BASKET_LIST, basketsWhere } from "../sales.ts";
import { type CellValue, columnsOf, type ExportTable, inBatches, mapBatches, type RowColumn } from "./engine.ts";
import { type ExportRequest, fileNameOf, keysetOf, requiredEvent } from "./scope.ts";

/** The baskets list's filters (`id` is a basket's); the rows are in the order the articles were chosen. */
export const PARTICIPANT_LIST: ListOptions = { sortable: ["id"], idFilters: BASKET_LIST.idFilters };

interface FormField {
  id: number | null;
  group: string;
  name: string;
  type: string;
}

const nameKey = (group: string, name: string) => `${group}\u0000${name}`;

/**
 * The event's form fields in the form's order, then any answered field deleted since (its answers keep their
 * names: the snapshot of the form as it was answered), so that no answer given is left out of the file.
 */
async function formFields(request: ExportRequest, eventId: number, sold: ReturnType<typeof and>) {
  const { db } = request;
  const { nodeExtraInfoGroups: groups, nodeExtraInfos: infos, selectedNodes: lines, baskets } = schema;
  const { selectedNodeExtraInfoGroups: answerGroups, selectedNodeExtraInfos: answers } = schema;
  const current: FormField[] = await db
    .select({ id: infos.id, group: groups.name, name: infos.name, type: infos.type })
    .from(infos)
    .innerJoin(groups, eq(groups.id, infos.groupId))
    .where(eq(groups.eventId, eventId))
    .orderBy(asc(groups.order), asc(groups.id), asc(infos.order), asc(infos.id))
    .all();
  const names = new Set(current.map((field) => nameKey(field.group, field.name)));
  const gone = await db
    .selectDistinct({ group: answerGroups.name, name: answers.name, type: answers.type })
    .from(answers)
    .innerJoin(answerGroups, eq(answerGroups.id, answers.selectedGroupId))
    .innerJoin(lines, eq(lines.id, answerGroups.selectedNodeId))
    .innerJoin(baskets, eq(baskets.id, lines.basketId))
    .where(and(sold, isNull(answers.extraInfoId)))
    .orderBy(asc(answerGroups.name), asc(answers.name))
    .all();
  const deleted = gone.filter((field) => !names.has(nameKey(field.group, field.name)));
  return [...current, ...deleted.map((field) => ({ ...field, id: null }))];
}

/** Per article of the batch: its options still held (titles, and their price). */
async function optionsOf(request: ExportRequest, itemIds: number[]) {
  const { selectedNodes: lines } = schema;
  const rows = await request.db
    .select({ parentId: lines.parentId, title: lines.title, titleFr: lines.titleFr, price: lines.price })
    .from(lines)
    .where(and(inArray(lines.parentId, itemIds), eq(lines.status, "held")))
    .orderBy(asc(lines.id))
    .all();
  const options = new Map<number, { titles: string[]; titlesFr: string[]; price: number }>();
  for (const row of rows) {
    const entry = options.get(row.parentId as number) ?? { titles: [], titlesFr: [], price: 0 };
    entry.titles.push(row.title);
    entry.titlesFr.push(row.titleFr);
    entry.price += row.price;
    options.set(row.parentId as number, entry);
  }
  return options;
}

/** Per article of the batch: its answers, each in the column of its field (by id, or by names once deleted). */
async function answersOf(request: ExportRequest, itemIds: number[], fields: FormField[]) {
  const { selectedNodeExtraInfoGroups: answerGroups, selectedNodeExtraInfos: answers } = schema;
  const byId = new Map<number, number>();
  const byName = new Map<string, number>();
  fields.forEach((field, index) => {
    if (field.id !== null) byId.set(field.id, index);
    const key = nameKey(field.group, field.name);
    if (!byName.has(key)) byName.set(key, index);
  });
  const rows = await request.db
    .select({
      itemId: answerGroups.selectedNodeId,
      extraInfoId: answers.extraInfoId,
      group: answerGroups.name,
      name: answers.name,
      value: answers.value,
    })
    .from(answers)
    .innerJoin(answerGroups, eq(answerGroups.id, answers.selectedGroupId))
    .where(inArray(answerGroups.selectedNodeId, itemIds))
    .orderBy(asc(answers.id))
    .all();
  const perItem = new Map<number, (string | null)[]>();
  for (const row of rows) {
    const column =
      (row.extraInfoId === null ? undefined : byId.get(row.extraInfoId)) ?? byName.get(nameKey(row.group, row.name));
    if (column === undefined) continue;
    const values = perItem.get(row.itemId) ?? [];
    values[column] = row.value;
    perItem.set(row.itemId, values);
  }
  return perItem;
}

export async function participantsExport(request: ExportRequest): Promise<ExportTable> {
  const { db, query, t } = request;
  const event = await requiredEvent(request);
  const { selectedNodes: lines, baskets, billingInformation: billing } = schema;
  const sold = and(
    eq(baskets.id, lines.basketId),
    await basketsWhere(db, request.user, query),
    inArray(baskets.status, [...SOLD_BASKET_STATUSES]),
    eq(lines.status, "held"),
    eq(lines.isArticle, true),
  );
  const fields = await formFields(request, event.id, sold);
  const keyset = keysetOf(query, { id: lines.id }, lines.id);
  const batches = inBatches(keyset, sold, () =>
    db
      .select({
        id: lines.id,
        basketId: baskets.id,
        reference: baskets.unikey,
        title: lines.title,
        titleFr: lines.titleFr,
        price: lines.price,
        createdAt: baskets.createdAt,
        firstName: billing.firstName,
        lastName: billing.lastName,
        email: billing.email,
      })
      .from(lines)
      // SQLite keeps a CROSS JOIN's order: the lines are walked in id order from the last batch's (`id > ?`),
      // each checked against its basket, and the batch stops at its size. Left to itself, the planner starts from
      // the event's baskets, reads every line of the event and sorts them for each batch, which grows with the
      // square of the event's size (2.6 s of 4.7 s at 50,000 articles).
      .crossJoin(baskets)
      .leftJoin(billing, eq(billing.id, baskets.billingInformationId))
      .$dynamic(),
  );
  const header = (key: string) => t(`columns.participants.${key}`);
  const answerCell = (field: FormField, value: string | null | undefined): CellValue => {
    if (field.type !== "boolean" || !value) return value;
    return value === "true" ? t("values.boolean.yes") : value === "false" ? t("values.boolean.no") : value;
  };
  const withExtras = mapBatches(batches, async (rows) => {
    const ids = rows.map((row) => row.id);
    const [options, answers] = await Promise.all([optionsOf(request, ids), answersOf(request, ids, fields)]);
    return rows.map((row) =>
      Object.assign(row, {
        options: options.get(row.id) ?? { titles: [], titlesFr: [], price: 0 },
        answers: answers.get(row.id) ?? [],
      }),
    );
  });
  return {
    fileName: fileNameOf(request, "participants", [event]),
    sheetName: t("sheets.participants"),
    ...columnsOf(
      [
        { header: header("id"), kind: "integer", cell: (row) => row.id },
        { header: header("basket_id"), kind: "integer", cell: (row) => row.basketId },
        { header: header("basket_reference"), kind: "text", width: 14, cell: (row) => row.reference },
        { header: header("article"), kind: "text", width: 28, cell: (row) => row.title },
        { header: header("article_fr"), kind: "text", width: 28, cell: (row) => row.titleFr },
        { header: header("options"), kind: "text", width: 28, cell: (row) => row.options.titles.join(", ") },
        {
          header: header("options_fr"),
          kind: "text",
          width: 28,
          // Empty while no option has a French title (as the article's column); else as a French buyer reads them,
          // an option without French by its English, so the list keeps one name per option.
          cell: (row) =>
            row.options.titlesFr.some((title) => title.trim() !== "")
              ? row.options.titles
                  .map((title, index) => inLanguage(title, row.options.titlesFr[index], "fr"))
                  .join(", ")
              : "",
        },
        { header: header("price"), kind: "money", cell: (row) => row.price + row.options.price },
        { header: header("first_name"), kind: "text", cell: (row) => row.firstName },
        { header: header("last_name"), kind: "text", cell: (row) => row.lastName },
        { header: header("email"), kind: "text", width: 30, cell: (row) => row.email },
        { header: header("created_at"), kind: "moment", cell: (row) => row.createdAt },
        ...fields.map(
          (field, index): RowColumn<{ answers: (string | null)[] }> => ({
            header: `${field.group} / ${field.name}`,
            kind: field.type === "numerical" ? "number" : "text",
            cell: (row) => answerCell(field, row.answers[index]),
          }),
        ),
      ],
      withExtras,
    ),
  };
}

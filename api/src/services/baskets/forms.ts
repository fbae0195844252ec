// The wizard's forms (docs/specification.md §2.4, docs/design.md §4): the extra-info groups linked to each article in a
// basket, the answers kept per article, validated by the shared field rules.
import { type Database, type Db, eq, inArray, run, schema } from "@ticketing/db";
import type { Visitor } from "@ticketing/shared/conditions";
import type { Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import { validateExtraInfo } from "@ticketing/shared/extra-infos";
import { conflict, DomainError, notFound } from "../../lib/errors.ts";
import type { Event } from "../accounts/access.ts";
import { type Catalogue, type FormGroup, formGroupsFor, presentFormGroup } from "../catalogue/catalogue.ts";
import { heldArticleOf, heldArticlesOf } from "./holds.ts";
import type { Basket } from "./rows.ts";

type SelectedNode = typeof schema.selectedNodes.$inferSelect;

async function heldArticles(db: Db, basketId: number) {
  return db.select().from(schema.selectedNodes).where(heldArticlesOf(basketId)).all();
}

async function savedValues(db: Db, itemIds: number[]) {
  if (itemIds.length === 0) return new Map<string, string | null>();
  const rows = await db
    .select({
      itemId: schema.selectedNodeExtraInfoGroups.selectedNodeId,
      extraInfoId: schema.selectedNodeExtraInfos.extraInfoId,
      value: schema.selectedNodeExtraInfos.value,
    })
    .from(schema.selectedNodeExtraInfos)
    .innerJoin(
      schema.selectedNodeExtraInfoGroups,
      eq(schema.selectedNodeExtraInfoGroups.id, schema.selectedNodeExtraInfos.selectedGroupId),
    )
    .where(inArray(schema.selectedNodeExtraInfoGroups.selectedNodeId, itemIds))
    .all();
  return new Map(rows.map((r) => [`${r.itemId}:${r.extraInfoId}`, r.value]));
}

/**
 * A choice's answer is its English (docs/decisions/0043): a client that sent the French label a French buyer read (a
 * form built from the labels alone) gives the choice it names, never a second spelling of the same answer.
 */
function choiceValue(info: FormGroup["extraInfos"][number], given: string | null | undefined) {
  if (info.type !== "choice" || typeof given !== "string" || !info.choicesFrJson) return given;
  const choices = info.choicesJson ?? [];
  const answer = given.trim();
  if (choices.some((choice) => choice.trim() === answer)) return given;
  const index = info.choicesFrJson.findIndex((label) => label.trim() !== "" && label.trim() === answer);
  return index >= 0 && index < choices.length ? choices[index] : given;
}

function groupsOfItem(catalogue: Catalogue, item: SelectedNode, visitor: Visitor) {
  const node = item.nodeId === null ? undefined : catalogue.byId.get(item.nodeId);
  return node ? formGroupsFor(catalogue, node, visitor) : [];
}

/**
 * One entry per article of the basket that has forms, with the answers given so far; titles, labels and choices'
 * labels in `language` (an answer is the English choice, whatever the label read, docs/decisions/0043).
 */
export async function basketForms(
  db: Db,
  catalogue: Catalogue,
  basket: Basket,
  visitor: Visitor,
  language: Language = "en",
) {
  const items = await heldArticles(db, basket.id);
  const values = await savedValues(
    db,
    items.map((i) => i.id),
  );
  return items
    .map((item) => ({
      itemId: item.id,
      title: inLanguage(item.title, item.titleFr, language),
      groups: groupsOfItem(catalogue, item, visitor).map((group) => {
        const shaped = presentFormGroup(group, language);
        return {
          ...shaped,
          extraInfos: shaped.extraInfos.map((info) => ({
            ...info,
            value: values.get(`${item.id}:${info.id}`) ?? null,
          })),
        };
      }),
    }))
    .filter((entry) => entry.groups.length > 0);
}

/** Validates every field of the article's forms and stores the answers (replacing earlier ones). */
export async function saveAnswers(
  database: Database,
  input: {
    catalogue: Catalogue;
    event: Event;
    basket: Basket;
    itemId: number;
    answers: { extraInfoId: number; value: string | null }[];
    visitor: Visitor;
    now: Date;
    language?: Language;
  },
) {
  const { basket, catalogue } = input;
  if (basket.status !== "new" && basket.status !== "edition_in_progress")
    throw conflict("errors.basket_not_modifiable");
  const item = await database.db
    .select()
    .from(schema.selectedNodes)
    .where(heldArticleOf(basket.id, input.itemId))
    .get();
  if (!item) throw notFound();
  const groups = groupsOfItem(catalogue, item, input.visitor);
  const given = new Map(input.answers.map((a) => [a.extraInfoId, a.value]));
  const fieldErrors: Record<string, string> = {};
  const values: Record<string, number> = {};
  const accepted: {
    group: (typeof groups)[number];
    info: (typeof groups)[number]["extraInfos"][number];
    value: string;
  }[] = [];
  for (const group of groups)
    for (const info of group.extraInfos) {
      const result = validateExtraInfo(
        {
          type: info.type,
          isRequired: info.isRequired,
          choices: info.choicesJson,
          majorReferenceDate: info.majorJson?.referenceDate ?? input.event.startDate,
          majorityAge: info.majorJson?.age,
        },
        choiceValue(info, given.get(info.id)),
        { today: input.now.toISOString().slice(0, 10) },
      );
      if (result.ok) accepted.push({ group, info, value: result.value });
      else {
        fieldErrors[`extra_info_${info.id}`] = result.messageKey;
        Object.assign(values, result.values ?? {});
      }
    }
  if (Object.keys(fieldErrors).length > 0)
    throw new DomainError("invalid", [...new Set(Object.values(fieldErrors))], fieldErrors, values);
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .delete(schema.selectedNodeExtraInfoGroups)
        .where(eq(schema.selectedNodeExtraInfoGroups.selectedNodeId, item.id))
        .run(),
    );
    for (const group of groups) {
      const selected = yield* run(
        tx
          .insert(schema.selectedNodeExtraInfoGroups)
          .values({
            selectedNodeId: item.id,
            groupId: group.id,
            name: group.name,
            nameFr: group.nameFr,
            isRequired: group.isRequired,
          })
          .returning()
          .get(),
      );
      for (const { info, value } of accepted.filter((a) => a.group === group))
        yield* run(
          tx
            .insert(schema.selectedNodeExtraInfos)
            .values({
              selectedGroupId: selected.id,
              extraInfoId: info.id,
              name: info.name,
              nameFr: info.nameFr,
              type: info.type,
              value,
            })
            .run(),
        );
    }
  });
  return (
    (await basketForms(database.db, catalogue, basket, input.visitor, input.language)).find(
      (entry) => entry.itemId === item.id,
    ) ?? {
      itemId: item.id,
      title: inLanguage(item.title, item.titleFr, input.language ?? "en"),
      groups: [],
    }
  );
}

/** Whether some article still misses a required answer (checkout refuses it). */
export async function hasMissingAnswers(
  db: Db,
  catalogue: Catalogue,
  basket: Basket,
  visitor: Visitor,
): Promise<boolean> {
  const forms = await basketForms(db, catalogue, basket, visitor);
  return forms.some((entry) =>
    entry.groups.some((group) =>
      group.extraInfos.some((info) => info.isRequired && (info.value === null || info.value === "")),
    ),
  );
}

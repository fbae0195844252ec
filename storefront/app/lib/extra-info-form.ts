// The forms step (docs/specification.md §2.4, docs/api.md "Forms"): one answer per article and field, named so that one
// page can hold the forms of every article, and the API's `field_errors.extra_info_<id>` put back beside them.
import { COUNTRIES } from "@ticketing/shared/countries";
import type { ItemForms } from "@ticketing/shared/schemas/ticket-office";

/** The form name of an article's answer to a field (the same field repeats for each article). */
export const answerName = (itemId: number, extraInfoId: number) => `answer.${itemId}.${extraInfoId}`;

/** The element id of that input, for labels and the error summary's links. */
export const answerId = (itemId: number, extraInfoId: number) => `answer-${itemId}-${extraInfoId}`;

/** The answers of one article as the API takes them; an unticked checkbox sends nothing and answers "false". */
export function answersOf(form: FormData, item: ItemForms) {
  return item.groups.flatMap((group) =>
    group.extraInfos.map((info) => {
      const raw = form.get(answerName(item.itemId, info.id));
      const value = typeof raw === "string" ? raw : "";
      return { extraInfoId: info.id, value: info.type === "boolean" ? String(value === "true") : value };
    }),
  );
}

/** `{extraInfo12: "…"}` (the API's `extra_info_12`, camel-cased) → `{"answer.7.12": "…"}`. */
export function answerErrorsOf(itemId: number, fieldErrors: Record<string, string>) {
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(fieldErrors)) {
    const match = /^extraInfo_?(\d+)$/.exec(key);
    if (match) errors[answerName(itemId, Number(match[1]))] = message;
  }
  return errors;
}

/** ISO 3166-1 codes with their names in the visitor's language, sorted as that language sorts them. */
export function countryOptions(language: string) {
  const column = language === "fr" ? 2 : 1;
  return COUNTRIES.map((country) => ({ code: country[0], name: country[column] as string })).sort((a, b) =>
    a.name.localeCompare(b.name, language),
  );
}

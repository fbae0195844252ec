// What an organiser writes for buyers, in English and French (docs/decisions/0043): each text has its English in
// its own field (`title`) and its French beside it (`titleFr`), empty until written. A buyer reads their language's,
// else the other one's (English first), never an empty text while either language has one.
import type { Language } from "./constants.ts";

/** The field that holds the French of `field`: `titleFr`. */
export const frenchField = <F extends string>(field: F) => `${field}Fr` as const;

/** `english` and `french` as a buyer of `language` reads them: their language's, else the other one's. */
export function inLanguage(english: string | null | undefined, french: string | null | undefined, language: Language) {
  const [first, second] = language === "fr" ? [french, english] : [english, french];
  return (first?.trim() ? first : second?.trim() ? second : first) ?? "";
}

/**
 * `row` as a buyer of `language` reads it: each of `fields` holds the text in their language (`inLanguage` of it and
 * its `…Fr`), and the `…Fr` fields are left out.
 */
export function readIn<R extends object, F extends keyof R & string>(
  row: R,
  fields: readonly F[],
  language: Language,
): Omit<R, `${F}Fr`> {
  const read = { ...row } as Record<string, unknown>;
  for (const field of fields) {
    const french = frenchField(field);
    read[field] = inLanguage(row[field] as string, read[french] as string | undefined, language);
    delete read[french];
  }
  return read as Omit<R, `${F}Fr`>;
}

/**
 * The choices of a form's field in `language`: the French of each where written (`french` in the same order), else
 * its English. What a buyer picks is stored, checked and exported as the English choice (`value`).
 */
export function choicesIn(
  english: readonly string[],
  french: readonly string[] | null | undefined,
  language: Language,
) {
  return english.map((value, index) => ({ value, label: inLanguage(value, french?.[index], language) }));
}

/** The fields of `row` among `fields` whose French is missing while their English is written. */
export function missingFrench<R extends object>(row: R, fields: readonly (keyof R & string)[]) {
  const read = row as Record<string, unknown>;
  return fields.filter(
    (field) =>
      typeof read[field] === "string" &&
      (read[field] as string).trim() !== "" &&
      !String(read[frenchField(field)] ?? "").trim(),
  );
}

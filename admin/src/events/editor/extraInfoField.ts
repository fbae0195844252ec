// The forms builder's field configuration (docs/specification.md §9's eleven form field types): which settings a type
// takes, and the `/node-extra-infos` body of a field as the dialog edits it. Pure.
import { EXTRA_INFO_TYPES, type ExtraInfoType, MAJORITY_AGE } from "@ticketing/shared/constants";
import { parseIsoDate } from "@ticketing/shared/extra-infos";
import type { NodeExtraInfo } from "@ticketing/shared/schemas/catalogue";

export { EXTRA_INFO_TYPES };

export interface ExtraInfoDraft {
  name: string;
  nameFr: string;
  text: string;
  textFr: string;
  helpText: string;
  helpTextFr: string;
  type: ExtraInfoType;
  isRequired: boolean;
  /** one choice a line (type `choice`) */
  choices: string;
  /** the French of each choice, on the line of its English (docs/decisions/0043) */
  choicesFr: string;
  /** YYYY-MM-DD, empty: the event's date (type `dateMajor`) */
  referenceDate: string;
  /** whole years (type `dateMajor`) */
  age: string;
}

/** The settings a type shows besides name, label, help text and required. */
export function settingsOf(type: ExtraInfoType): { hasChoices: boolean; hasMajority: boolean } {
  return { hasChoices: type === "choice", hasMajority: type === "dateMajor" };
}

export const newExtraInfoDraft = (type: ExtraInfoType = "text"): ExtraInfoDraft => ({
  name: "",
  nameFr: "",
  text: "",
  textFr: "",
  helpText: "",
  helpTextFr: "",
  type,
  isRequired: false,
  choices: "",
  choicesFr: "",
  referenceDate: "",
  age: String(MAJORITY_AGE),
});

/** The draft of a stored field (`GET /node-extra-infos`). */
export function draftFromExtraInfo(row: NodeExtraInfo): ExtraInfoDraft {
  return {
    name: row.name,
    nameFr: row.nameFr ?? "",
    text: row.text,
    textFr: row.textFr ?? "",
    helpText: row.helpText,
    helpTextFr: row.helpTextFr ?? "",
    type: row.type,
    isRequired: row.isRequired,
    choices: (row.choicesJson ?? []).join("\n"),
    // Each French on its English's line; trailing empty ones add nothing to read.
    choicesFr: (row.choicesFrJson ?? []).join("\n").trimEnd(),
    referenceDate: row.majorJson?.referenceDate ?? "",
    age: String(row.majorJson?.age ?? MAJORITY_AGE),
  };
}

/** Distinct, trimmed, non-empty lines. */
export const choicesOf = (text: string): string[] => [
  ...new Set(
    text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean),
  ),
];

/**
 * The French of the choices `choicesOf(english)` keeps, in their order: each is the French line beside its English
 * line (the same line number), empty where none is written, so a blank or repeated English line shifts nothing.
 */
export function frenchChoicesOf(english: string, french: string): string[] {
  const frenchLines = french.split("\n").map((line) => line.trim());
  const seen = new Set<string>();
  const aligned: string[] = [];
  english.split("\n").forEach((line, index) => {
    const value = line.trim();
    if (!value || seen.has(value)) return;
    seen.add(value);
    aligned.push(frenchLines[index] ?? "");
  });
  return aligned;
}

export type ExtraInfoProblems = Partial<Record<"name" | "choices" | "referenceDate" | "age", string>>;

/** Field-level problems as i18n keys; empty when the draft can be saved. */
export function extraInfoProblems(draft: ExtraInfoDraft): ExtraInfoProblems {
  const problems: ExtraInfoProblems = {};
  if (draft.name.trim() === "") problems.name = "ra.validation.required";
  const { hasChoices, hasMajority } = settingsOf(draft.type);
  if (hasChoices && choicesOf(draft.choices).length === 0) problems.choices = "admin.editor.forms.choicesRequired";
  if (hasMajority) {
    if (draft.referenceDate.trim() !== "" && parseIsoDate(draft.referenceDate.trim()) === null)
      problems.referenceDate = "admin.editor.forms.invalidDate";
    if (!/^\d{1,3}$/.test(draft.age.trim())) problems.age = "admin.editor.forms.invalidAge";
  }
  return problems;
}

/**
 * The body of `POST|PUT /node-extra-infos`: settings of other types are cleared (a field changed from `choice`
 * to `text` must not keep its choices), a majority without reference date means the event's date.
 */
export function extraInfoBody(draft: ExtraInfoDraft) {
  const { hasChoices, hasMajority } = settingsOf(draft.type);
  const referenceDate = draft.referenceDate.trim();
  return {
    name: draft.name.trim(),
    nameFr: draft.nameFr.trim(),
    text: draft.text.trim(),
    textFr: draft.textFr.trim(),
    helpText: draft.helpText.trim(),
    helpTextFr: draft.helpTextFr.trim(),
    type: draft.type,
    isRequired: draft.isRequired,
    choicesJson: hasChoices ? choicesOf(draft.choices) : null,
    // Only labels: a buyer's answer stores the English choice (docs/decisions/0043).
    choicesFrJson: hasChoices ? frenchChoicesOf(draft.choices, draft.choicesFr) : null,
    majorJson: hasMajority
      ? { ...(referenceDate ? { referenceDate } : {}), age: Number(draft.age.trim() || MAJORITY_AGE) }
      : null,
  };
}

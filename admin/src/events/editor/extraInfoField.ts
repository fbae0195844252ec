// The forms builder's field configuration (docs/specification.md §9's eleven form field types): which settings a type
// takes, and the `/node-extra-infos` body of a field as the dialog edits it. Pure.
import { EXTRA_INFO_TYPES, type ExtraInfoType, MAJORITY_AGE } from "@ticketing/shared/constants";
import { parseIsoDate } from "@ticketing/shared/extra-infos";
import type { NodeExtraInfo } from "@ticketing/shared/schemas/catalogue";

export { EXTRA_INFO_TYPES };

export interface ExtraInfoDraft {
  name: string;
  text: string;
  helpText: string;
  type: ExtraInfoType;
  isRequired: boolean;
  /** one choice a line (type `choice`) */
  choices: string;
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
  text: "",
  helpText: "",
  type,
  isRequired: false,
  choices: "",
  referenceDate: "",
  age: String(MAJORITY_AGE),
});

/** The draft of a stored field (`GET /node-extra-infos`). */
export function draftFromExtraInfo(row: NodeExtraInfo): ExtraInfoDraft {
  return {
    name: row.name,
    text: row.text,
    helpText: row.helpText,
    type: row.type,
    isRequired: row.isRequired,
    choices: (row.choicesJson ?? []).join("\n"),
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
    text: draft.text.trim(),
    helpText: draft.helpText.trim(),
    type: draft.type,
    isRequired: draft.isRequired,
    choicesJson: hasChoices ? choicesOf(draft.choices) : null,
    majorJson: hasMajority
      ? { ...(referenceDate ? { referenceDate } : {}), age: Number(draft.age.trim() || MAJORITY_AGE) }
      : null,
  };
}

import { describe, expect, it } from "vitest";
import {
  choicesOf,
  draftFromExtraInfo,
  EXTRA_INFO_TYPES,
  extraInfoBody,
  extraInfoProblems,
  newExtraInfoDraft,
  settingsOf,
} from "./extraInfoField.ts";

describe("settingsOf", () => {
  it("gives choices to choice fields and a majority to dateMajor only", () => {
    const withSettings = EXTRA_INFO_TYPES.filter((type) => settingsOf(type).hasChoices || settingsOf(type).hasMajority);
    expect(withSettings).toEqual(["choice", "dateMajor"]);
    expect(EXTRA_INFO_TYPES).toHaveLength(11);
  });
});

describe("extraInfoBody", () => {
  it("sends the choices of a choice field, one a line, distinct and trimmed", () => {
    const body = extraInfoBody({ ...newExtraInfoDraft("choice"), name: " T-shirt ", choices: "S\n M \n\nS\nL" });
    expect(body).toMatchObject({ name: "T-shirt", type: "choice", choicesJson: ["S", "M", "L"], majorJson: null });
  });

  it("sends the majority of a dateMajor field, the event's date when no reference date is given", () => {
    expect(extraInfoBody({ ...newExtraInfoDraft("dateMajor"), name: "Birth date" }).majorJson).toEqual({ age: 18 });
    expect(
      extraInfoBody({ ...newExtraInfoDraft("dateMajor"), name: "Birth date", referenceDate: "2030-06-01", age: "16" })
        .majorJson,
    ).toEqual({ referenceDate: "2030-06-01", age: 16 });
  });

  it("sends each French choice beside its English one, a blank or repeated English line shifting none", () => {
    const body = extraInfoBody({
      ...newExtraInfoDraft("choice"),
      name: "Meal",
      choices: "Meat\n\nFish\nMeat\nVegan",
      choicesFr: "Viande\n\nPoisson\nViande",
    });
    expect(body.choicesJson).toEqual(["Meat", "Fish", "Vegan"]);
    expect(body.choicesFrJson).toEqual(["Viande", "Poisson", ""]);
  });

  it("clears the settings of another type", () => {
    const draft = { ...newExtraInfoDraft("text"), name: "Note", choices: "A\nB", referenceDate: "2030-01-01" };
    expect(extraInfoBody({ ...draft, choicesFr: "X" })).toMatchObject({
      choicesJson: null,
      choicesFrJson: null,
      majorJson: null,
    });
  });

  it("round-trips a stored field", () => {
    const row = {
      id: 1,
      eventId: 3,
      groupId: 2,
      name: "Size",
      nameFr: "Taille",
      text: "Your size",
      textFr: "",
      helpText: "",
      helpTextFr: "",
      type: "choice" as const,
      isRequired: true,
      order: 0,
      choicesJson: ["S", "M", "L"],
      choicesFrJson: ["", "Moyenne", ""],
      majorJson: null,
      range: null,
    };
    expect(extraInfoBody(draftFromExtraInfo(row))).toEqual({
      name: "Size",
      nameFr: "Taille",
      text: "Your size",
      textFr: "",
      helpText: "",
      helpTextFr: "",
      type: "choice",
      isRequired: true,
      choicesJson: ["S", "M", "L"],
      choicesFrJson: ["", "Moyenne", ""],
      majorJson: null,
    });
  });
});

describe("extraInfoProblems", () => {
  it("needs a name, at least one choice, a real reference date and a whole age", () => {
    expect(extraInfoProblems(newExtraInfoDraft("choice"))).toEqual({
      name: "ra.validation.required",
      choices: "admin.editor.forms.choicesRequired",
    });
    expect(
      extraInfoProblems({ ...newExtraInfoDraft("dateMajor"), name: "Born", referenceDate: "2030-02-30", age: "x" }),
    ).toEqual({ referenceDate: "admin.editor.forms.invalidDate", age: "admin.editor.forms.invalidAge" });
    expect(extraInfoProblems({ ...newExtraInfoDraft("email"), name: "Email" })).toEqual({});
    expect(choicesOf("")).toEqual([]);
  });
});

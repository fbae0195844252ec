import type { ItemForms } from "@ticketing/shared/schemas/ticket-office";
import { describe, expect, it } from "vitest";
import { answerErrorsOf, answerName, answersOf, countryOptions } from "./extra-info-form";

/** What every field answers beside what a test sets. */
const FIELD = { text: "", helpText: "", order: 0, choices: [], choiceLabels: [], major: null, value: null };

const item: ItemForms = {
  itemId: 7,
  title: "Day pass",
  groups: [
    {
      id: 1,
      name: "Participant",
      isRequired: true,
      isInline: false,
      helpText: "",
      order: 0,
      extraInfos: [
        { ...FIELD, id: 12, name: "First name", type: "text", isRequired: true },
        { ...FIELD, id: 13, name: "I accept the rules", type: "boolean", isRequired: true },
        { ...FIELD, id: 14, name: "Diet", type: "choice", isRequired: false, choices: ["Vegetarian", "Vegan"] },
      ],
    },
  ],
};

describe("forms answers", () => {
  it("reads one article's answers, an unticked checkbox as false", () => {
    const form = new FormData();
    form.set(answerName(7, 12), "Ada");
    form.set(answerName(8, 12), "someone else's ticket");
    expect(answersOf(form, item)).toEqual([
      { extraInfoId: 12, value: "Ada" },
      { extraInfoId: 13, value: "false" },
      { extraInfoId: 14, value: "" },
    ]);
    form.set(answerName(7, 13), "true");
    expect(answersOf(form, item)[1]).toEqual({ extraInfoId: 13, value: "true" });
  });

  it("puts the API's field errors beside the article's inputs", () => {
    expect(answerErrorsOf(7, { extraInfo12: "This field is required", basketId: "x" })).toEqual({
      "answer.7.12": "This field is required",
    });
  });
});

describe("countries", () => {
  it("lists ISO codes under names in the visitor's language", () => {
    expect(countryOptions("fr").find((country) => country.code === "CH")?.name).toBe("Suisse");
    expect(countryOptions("en").find((country) => country.code === "DE")?.name).toBe("Germany");
  });
});

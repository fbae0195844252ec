import { describe, expect, it } from "vitest";
import { choicesIn, inLanguage, missingFrench, readIn } from "./content-language.ts";

describe("inLanguage", () => {
  it("gives a buyer their language's text", () => {
    expect(inLanguage("Day pass", "Pass journée", "fr")).toBe("Pass journée");
    expect(inLanguage("Day pass", "Pass journée", "en")).toBe("Day pass");
  });

  it("falls back to the other language, never to an empty text while one is written", () => {
    expect(inLanguage("Day pass", "", "fr")).toBe("Day pass");
    expect(inLanguage("Day pass", "   ", "fr")).toBe("Day pass");
    expect(inLanguage("Day pass", null, "fr")).toBe("Day pass");
    expect(inLanguage("", "Pass journée", "en")).toBe("Pass journée");
    expect(inLanguage("", "", "fr")).toBe("");
  });
});

describe("readIn", () => {
  const row = { id: 1, title: "Day pass", titleFr: "Pass journée", description: "One day", descriptionFr: "" };

  it("puts each text in the buyer's language and leaves the French fields out", () => {
    expect(readIn(row, ["title", "description"], "fr")).toEqual({
      id: 1,
      title: "Pass journée",
      description: "One day",
    });
    expect(readIn(row, ["title", "description"], "en")).toEqual({ id: 1, title: "Day pass", description: "One day" });
  });
});

describe("choicesIn", () => {
  it("labels each choice in French where written, its English staying the value an answer keeps", () => {
    expect(choicesIn(["Vegetarian", "Vegan", "None"], ["Végétarien", ""], "fr")).toEqual([
      { value: "Vegetarian", label: "Végétarien" },
      { value: "Vegan", label: "Vegan" },
      { value: "None", label: "None" },
    ]);
    expect(choicesIn(["Vegetarian"], ["Végétarien"], "en")).toEqual([{ value: "Vegetarian", label: "Vegetarian" }]);
  });
});

describe("missingFrench", () => {
  it("names the texts written in English and not in French", () => {
    expect(
      missingFrench({ title: "Day pass", titleFr: "", description: "", descriptionFr: "" }, ["title", "description"]),
    ).toEqual(["title"]);
    expect(missingFrench({ title: "Day pass", titleFr: "Pass" }, ["title"])).toEqual([]);
  });
});

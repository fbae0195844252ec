import { describe, expect, it } from "vitest";
import { placeholdersOf } from "./communicationPages.ts";

describe("placeholdersOf", () => {
  it("lists what each text may use, as written in it", () => {
    expect(placeholdersOf("signature")).toBe("{{event}}");
    expect(placeholdersOf("pdfTicketText")).toBe("{{name}}, {{event}}, {{reference}}, {{article}}");
    expect(placeholdersOf("orderConfirmationBody")).toContain("{{total}}");
  });
});

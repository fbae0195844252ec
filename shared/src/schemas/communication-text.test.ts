import { describe, expect, it } from "vitest";
import { communicationText } from "./events.ts";

describe("communicationText", () => {
  it("gives the organiser's text in the buyer's language first", () => {
    const settings = { signatureEn: "The team", signatureFr: "L'équipe" };
    expect(communicationText(settings, "signature", "fr")).toBe("L'équipe");
    expect(communicationText(settings, "signature", "en")).toBe("The team");
  });

  it("falls back to the organiser's text in the other language, then to ours (null)", () => {
    expect(communicationText({ signatureEn: " The team ", signatureFr: "" }, "signature", "fr")).toBe("The team");
    expect(communicationText({ signatureEn: null, signatureFr: "L'équipe" }, "signature", "en")).toBe("L'équipe");
    expect(communicationText({ signatureEn: "  ", signatureFr: null }, "signature", "fr")).toBeNull();
    expect(communicationText(null, "pdfTicketText", "en")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { allowedStatuses } from "./statusTransitions.ts";

describe("allowedStatuses", () => {
  it("offers public to a draft only once moderation validated it", () => {
    expect(allowedStatuses("draft", "not_requested")).toEqual(["draft"]);
    expect(allowedStatuses("draft", "requested")).toEqual(["draft"]);
    expect(allowedStatuses("draft", "change_requested")).toEqual(["draft"]);
    expect(allowedStatuses("draft", "validated")).toEqual(["draft", "public"]);
  });

  it("lets a public event close or go back to draft", () => {
    expect(allowedStatuses("public", "validated")).toEqual(["public", "closed", "draft"]);
  });

  it("lets a closed event reopen or be archived", () => {
    expect(allowedStatuses("closed", "validated")).toEqual(["closed", "public", "archived"]);
    expect(allowedStatuses("closed", "change_requested")).toEqual(["closed", "archived"]);
  });

  it("keeps an archived event archived", () => {
    expect(allowedStatuses("archived", "validated")).toEqual(["archived"]);
  });
});

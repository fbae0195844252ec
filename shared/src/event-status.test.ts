import { describe, expect, it } from "vitest";
import {
  allowedStatuses,
  areCommunicationTextsLocked,
  canModerate,
  isEventLocked,
  moderationAfterChange,
} from "./event-status.ts";

describe("allowedStatuses", () => {
  it("offers public to a draft only once moderation validated it", () => {
    expect(allowedStatuses("draft", "not_requested")).toEqual(["draft"]);
    expect(allowedStatuses("draft", "requested")).toEqual(["draft"]);
    expect(allowedStatuses("draft", "change_requested")).toEqual(["draft"]);
    expect(allowedStatuses("draft", "validated")).toEqual(["draft", "public"]);
  });

  it("lets a public event close or go back to draft", () => {
    expect(allowedStatuses("public", "validated")).toEqual(["public", "closed", "draft"]);
    expect(allowedStatuses("public", "requested")).toEqual(["public", "closed", "draft"]);
  });

  it("lets a closed event reopen once validated, or be archived", () => {
    expect(allowedStatuses("closed", "validated")).toEqual(["closed", "public", "archived"]);
    expect(allowedStatuses("closed", "change_requested")).toEqual(["closed", "archived"]);
  });

  it("keeps an archived event archived", () => {
    expect(allowedStatuses("archived", "validated")).toEqual(["archived"]);
  });
});

describe("moderationAfterChange (ADR 0031)", () => {
  it("sends an approved draft back to its organiser, who asks again once the changes are done", () => {
    expect(moderationAfterChange("draft", "validated")).toBe("not_requested");
  });

  it("sends an approved public event's changed texts to the moderators at once", () => {
    expect(moderationAfterChange("public", "validated")).toBe("requested");
  });

  it("leaves any other moderation as it is", () => {
    for (const moderation of ["not_requested", "requested", "change_requested"] as const) {
      expect(moderationAfterChange("draft", moderation)).toBe(moderation);
      expect(moderationAfterChange("public", moderation)).toBe(moderation);
    }
  });
});

describe("locks", () => {
  it("locks every event but a draft, for all but superusers", () => {
    expect(isEventLocked("draft", false)).toBe(false);
    for (const status of ["public", "closed", "archived"] as const) {
      expect(isEventLocked(status, false)).toBe(true);
      expect(isEventLocked(status, true)).toBe(false);
    }
  });

  it("leaves a public event's communication texts open to its organisers, not a closed or archived one's", () => {
    expect(areCommunicationTextsLocked("draft", false)).toBe(false);
    expect(areCommunicationTextsLocked("public", false)).toBe(false);
    expect(areCommunicationTextsLocked("closed", false)).toBe(true);
    expect(areCommunicationTextsLocked("archived", false)).toBe(true);
    expect(areCommunicationTextsLocked("archived", true)).toBe(false);
  });
});

describe("canModerate", () => {
  it("asks again after changes were requested, approves what is pending, asks for changes to the approved", () => {
    expect(canModerate("request", "not_requested")).toBe(true);
    expect(canModerate("request", "change_requested")).toBe(true);
    expect(canModerate("request", "requested")).toBe(false);
    expect(canModerate("request", "validated")).toBe(false);
    expect(canModerate("approve", "requested")).toBe(true);
    expect(canModerate("approve", "validated")).toBe(false);
    expect(canModerate("requestChanges", "validated")).toBe(true);
    expect(canModerate("requestChanges", "not_requested")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { validatePassword, validatePasswordConfirmation } from "./passwordRules.ts";

describe("validatePassword", () => {
  it("refuses fewer than 12 characters", () => {
    expect(validatePassword("short-pass!")).toBe("admin.validation.passwordLength");
  });

  it("refuses a password without a special character", () => {
    expect(validatePassword("abcdefghijkl12")).toBe("admin.validation.passwordSpecialCharacter");
  });

  it("accepts 12 characters with one special character", () => {
    expect(validatePassword("demo-organis")).toBeUndefined();
    expect(validatePassword("correct horse battery")).toBeUndefined();
  });

  it("counts characters, not UTF-16 units", () => {
    expect(validatePassword("ééééééééééé")).toBe("admin.validation.passwordLength");
  });

  it("leaves emptiness to the required validator", () => {
    expect(validatePassword("")).toBeUndefined();
    expect(validatePassword(undefined)).toBeUndefined();
  });
});

describe("validatePasswordConfirmation", () => {
  it("refuses a confirmation that differs from the password", () => {
    expect(validatePasswordConfirmation("demo-organiser-2026?", { password: "demo-organiser-2026!" })).toBe(
      "admin.validation.passwordsMustMatch",
    );
  });

  it("accepts the same password", () => {
    expect(validatePasswordConfirmation("demo-organiser-2026!", { password: "demo-organiser-2026!" })).toBeUndefined();
  });
});

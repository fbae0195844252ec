import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PASSWORD_MESSAGES, passwordProblems, zNewPassword } from "./passwords.ts";

describe("password rules", () => {
  it("refuses a password of 11 characters, and one without a special character", () => {
    expect(passwordProblems("abcdefghij!")).toEqual(["tooShort"]);
    expect(passwordProblems("abcdefghijkl")).toEqual(["noSpecialCharacter"]);
    expect(passwordProblems("short")).toEqual(["tooShort", "noSpecialCharacter"]);
  });

  it("accepts 12 characters with one special character, accents counting as letters", () => {
    expect(passwordProblems("abcdefghijk!")).toEqual([]);
    expect(passwordProblems("éèàçöüabcdef")).toEqual(["noSpecialCharacter"]);
    expect(passwordProblems("correct horse battery")).toEqual([]);
  });

  it("reports a confirmation that does not match on the confirmation field", () => {
    const result = zNewPassword.safeParse({ password: "abcdefghijk!", passwordConfirmation: "abcdefghijk?" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["passwordConfirmation"], message: PASSWORD_MESSAGES.mismatch }),
    ]);
  });

  it("never accepts a password shorter than 12 characters, whatever it contains", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 11 }), (p) => passwordProblems(p).includes("tooShort") || [...p].length >= 12),
    );
  });
});

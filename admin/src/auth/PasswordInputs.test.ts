// The back office's password check is the API's rule (shared/src/passwords.ts): a password the form lets through
// is one the server takes, and one it refuses is refused before the round trip, with the reason under the input.
import { zPassword } from "@ticketing/shared/passwords";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validatePassword, validatePasswordConfirmation } from "./PasswordInputs.tsx";

describe("validatePassword", () => {
  it("refuses fewer than 12 characters", () => {
    expect(validatePassword("short-pass!")).toBe("admin.validation.passwordLength");
  });

  it("refuses a password without a special character", () => {
    expect(validatePassword("abcdefghijkl12")).toBe("admin.validation.passwordSpecialCharacter");
  });

  it("counts é as a letter, as the server does: a password whose only other character is é is refused", () => {
    expect(validatePassword("motdepasseété")).toBe("admin.validation.passwordSpecialCharacter");
    expect(validatePassword("Sécurité2026A")).toBe("admin.validation.passwordSpecialCharacter");
    expect(zPassword.safeParse("motdepasseété").success).toBe(false);
    expect(validatePassword("sécurité-2026")).toBeUndefined();
    expect(zPassword.safeParse("sécurité-2026").success).toBe(true);
  });

  it("accepts 12 characters with one special character", () => {
    expect(validatePassword("demo-organis")).toBeUndefined();
    expect(validatePassword("correct horse battery")).toBeUndefined();
  });

  it("counts characters, not UTF-16 units", () => {
    expect(validatePassword("ééééééééééé")).toBe("admin.validation.passwordLength");
  });

  it("lets through exactly the passwords the API accepts", () => {
    // Mostly letters and digits, accented or not from other scripts, now and then something else.
    const characters = fc.oneof(
      { arbitrary: fc.constantFrom(..."aébZ9ßΩ٣ç"), weight: 12 },
      { arbitrary: fc.constantFrom(..." -!€🙂_"), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(characters, { minLength: 8, maxLength: 16 }), (chars) => {
        const password = chars.join("");
        expect(validatePassword(password) === undefined).toBe(zPassword.safeParse(password).success);
      }),
    );
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

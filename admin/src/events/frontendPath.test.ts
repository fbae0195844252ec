import { describe, expect, it } from "vitest";
import { validateFrontendPath } from "./frontendPath.ts";

describe("validateFrontendPath", () => {
  it("accepts - _ digits and ASCII letters", () => {
    expect(validateFrontendPath("Summer-fest_2026")).toBeUndefined();
  });

  it("refuses any other character", () => {
    for (const path of ["summer fest", "été", "a/b", "a.b"]) {
      expect(validateFrontendPath(path)).toBe("admin.validation.frontendPathCharacters");
    }
  });

  it("refuses a path starting with preview or test, whatever the case", () => {
    for (const path of ["preview", "preview-2026", "test", "Testival", "PREVIEWS"]) {
      expect(validateFrontendPath(path)).toBe("admin.validation.frontendPathReserved");
    }
  });

  it("leaves emptiness to the required validator", () => {
    expect(validateFrontendPath("")).toBeUndefined();
    expect(validateFrontendPath(undefined)).toBeUndefined();
  });
});

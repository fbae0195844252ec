import { describe, expect, it } from "vitest";
import { errorPageOf } from "./errorPage.ts";

describe("errorPageOf", () => {
  it("names 404 and 403", () => {
    expect(errorPageOf(404).title).toBe("admin.errorPages.resourceNotFound");
    expect(errorPageOf(403)).toEqual({
      title: "admin.errorPages.accessDenied",
      text: "admin.errorPages.accessDeniedText",
    });
  });

  it("shows the code of other 4xx", () => {
    expect(errorPageOf(409)).toEqual({ title: "admin.errorPages.errorCode", options: { errorCode: 409 } });
  });

  it("shows an internal server error otherwise", () => {
    expect(errorPageOf(500).title).toBe("admin.errorPages.internalServerError");
    expect(errorPageOf(undefined).title).toBe("admin.errorPages.internalServerError");
  });
});

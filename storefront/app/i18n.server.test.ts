import { describe, expect, it } from "vitest";
import { getLanguage, languageCookie } from "./i18n.server";

const request = async ({ cookie, acceptLanguage }: { cookie?: string; acceptLanguage?: string }) => {
  const headers = new Headers();
  if (cookie) headers.set("Cookie", await languageCookie.serialize(cookie));
  if (acceptLanguage) headers.set("Accept-Language", acceptLanguage);
  return new Request("http://localhost/tickets/demo", { headers });
};

describe("language choice", () => {
  it("follows the lng cookie before the browser's languages", async () => {
    expect(await getLanguage(await request({ cookie: "fr", acceptLanguage: "en-US,en;q=0.9" }))).toBe("fr");
    expect(await getLanguage(await request({ cookie: "en", acceptLanguage: "fr-CH" }))).toBe("en");
  });

  it("falls back to Accept-Language, matching regional variants", async () => {
    expect(await getLanguage(await request({ acceptLanguage: "fr-CH,fr;q=0.9,en;q=0.5" }))).toBe("fr");
    expect(await getLanguage(await request({ acceptLanguage: "de-CH,fr;q=0.8,en;q=0.5" }))).toBe("fr");
  });

  it("ignores an unsupported cookie value", async () => {
    expect(await getLanguage(await request({ cookie: "xx", acceptLanguage: "fr" }))).toBe("fr");
  });

  it("speaks English when nothing else is known", async () => {
    expect(await getLanguage(await request({}))).toBe("en");
    expect(await getLanguage(await request({ acceptLanguage: "de-DE" }))).toBe("en");
  });
});

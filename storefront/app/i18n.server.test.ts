import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, useTranslation } from "react-i18next";
import { describe, expect, it } from "vitest";
import { getFixedT, getLanguage, i18nFor, languageCookie } from "./i18n.server";

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

/** A component translated by the i18next instance its provider gives. */
const SiteName = () => createElement("p", null, useTranslation().t("nav.siteName"));

describe("translators made once per language", () => {
  it("answer each of two requests at once, in en and in fr, in its own language", async () => {
    const render = async (acceptLanguage: string) => {
      const language = await getLanguage(await request({ acceptLanguage }));
      return renderToString(createElement(I18nextProvider, { i18n: i18nFor(language) }, createElement(SiteName)));
    };
    const pages = await Promise.all(["fr-CH", "en-GB", "fr", "en"].map(render));
    expect(pages).toEqual(["<p>Billetterie</p>", "<p>Ticket office</p>", "<p>Billetterie</p>", "<p>Ticket office</p>"]);
  });

  it("keep their language for messages built in actions", () => {
    expect(getFixedT("fr")("nav.siteName")).toBe("Billetterie");
    expect(getFixedT("en")("nav.siteName")).toBe("Ticket office");
    expect(i18nFor("fr").language).toBe("fr");
  });
});

describe("texts asked again", () => {
  it("are the same text each time, and texts with values or a count are still filled in per call", () => {
    const t = i18nFor("fr").getFixedT("fr");
    expect([t("nav.siteName"), t("nav.siteName")]).toEqual(["Billetterie", "Billetterie"]);
    const en = i18nFor("en").getFixedT("en");
    expect(en("nav.siteName")).toBe("Ticket office");
    expect(en("buy.quantityInvalid", { max: 3 })).toContain("3");
    expect(en("buy.quantityInvalid", { max: 7 })).toContain("7");
    expect(en("buy.quantityInvalid", { max: 7 })).not.toContain("3");
  });

  it("with a count or values are remembered per count and values, and answer as i18next does", () => {
    const en = i18nFor("en").getFixedT("en");
    const fr = i18nFor("fr").getFixedT("fr");
    const jump = (t: typeof en, count: number) => t("basket.jump", { count, total: "CHF 12.00" });
    expect([jump(en, 1), jump(en, 2), jump(en, 1)]).toEqual([
      "Your basket: 1 ticket, CHF 12.00",
      "Your basket: 2 tickets, CHF 12.00",
      "Your basket: 1 ticket, CHF 12.00",
    ]);
    expect(en("basket.jump", { count: 2, total: "CHF 30.00" })).toBe("Your basket: 2 tickets, CHF 30.00");
    expect(jump(fr, 2)).not.toBe(jump(en, 2));
    // Values that are not plain (here a list) are filled in per call, as before.
    expect(en("buy.quantityInvalid", { max: [4] } as never)).toContain("4");
  });
});

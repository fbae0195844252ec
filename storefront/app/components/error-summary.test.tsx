// The error summary as the server sends it: what takes the focus without JavaScript and where its links lead.
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { i18nFor } from "#app/i18n.server.ts";
import { ErrorSummary } from "./error-summary";

const render = (language: "en" | "fr", props: Parameters<typeof ErrorSummary>[0]) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18nFor(language)}>
      <ErrorSummary {...props} />
    </I18nextProvider>,
  );

describe("ErrorSummary", () => {
  const fields = [{ id: "billing-email", label: "Email", message: "This field is required" }];

  it("is an alert that the browser focuses as the page loads, titled in the page's language", () => {
    const html = render("fr", { errors: [], fields });
    expect(html).toMatch(/^<div class="alert alert-error" role="alert" tabindex="-1" autofocus=""/);
    expect(html).toContain('aria-labelledby="error-summary-title"');
    expect(html).toContain('<h2 id="error-summary-title">Il y a un problème</h2>');
  });

  it("links each field's message to its input, past Turbo (a new visit would empty the form)", () => {
    expect(render("en", { errors: ["Basket expired"], fields })).toContain(
      '<li>Basket expired</li><li><a href="#billing-email" data-turbo="false">Email: This field is required</a></li>',
    );
  });

  it("is not there when nothing was refused", () => {
    expect(render("en", { errors: [], fields: [] })).toBe("");
  });
});

// @vitest-environment jsdom
// The basket page's articles: each with the status the API gives it, read with its basket's (a paid basket's
// articles are sold, not "held"), in English and French.
import { cleanup, screen, within } from "@testing-library/react";
import type { BasketArticle } from "@ticketing/shared/schemas/sales";
import { afterEach, describe, expect, it } from "vitest";
import { renderInAdmin } from "../../widgets/test-render.tsx";
import { BasketArticles } from "./BasketArticles.tsx";
import { basketItem } from "./basket.fixtures.ts";

afterEach(cleanup);

const article = (id: number, status: BasketArticle["status"]): BasketArticle => ({
  ...basketItem(id, 2500),
  status,
});

const statusOf = (id: number) => {
  const row = screen.getByText(`#${id}`).closest("tr") as HTMLElement;
  return within(row).getAllByRole("cell").at(-1)?.textContent;
};

describe("BasketArticles", () => {
  it("shows a paid basket's articles as sold, a refunded one as refunded", () => {
    renderInAdmin(<BasketArticles basket={{ articles: [article(1, "sold"), article(2, "refunded")], answers: [] }} />);
    expect(statusOf(1)).toBe("Sold");
    expect(statusOf(2)).toBe("Refunded");
    expect(screen.queryByText(/Held/)).toBeNull();
  });

  it("says an article not paid yet is held or awaiting payment, and one whose hold ran out expired, in French", () => {
    const articles = [article(1, "held"), article(2, "awaiting_payment"), article(3, "expired"), article(4, "sold")];
    renderInAdmin(<BasketArticles basket={{ articles, answers: [] }} />, "fr");
    expect([1, 2, 3, 4].map(statusOf)).toEqual([
      "Réservé (commande non passée)",
      "Paiement en attente",
      "Réservation expirée",
      "Vendu",
    ]);
  });
});

// @vitest-environment jsdom
// The dashboard's charts: their money axes in a few characters (`CHF 10K`), so that a label fits beside the chart
// on a phone instead of being cut (`CHF 100…`), in English and French; the exact amounts stay in the figures' table.
import { cleanup } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { renderInAdmin } from "../../widgets/test-render.tsx";
import { SalesOverTimeChart, SalesPerArticleChart } from "./DashboardCharts.tsx";

afterEach(cleanup);

const DAYS = [
  { date: "2026-11-10", sales: 1_000_000, refunds: 0, baskets: 3 },
  { date: "2026-11-11", sales: 250_000, refunds: 20_000, baskets: 1 },
];
const ARTICLES = [
  { nodeId: 1, title: "Weekend pass", count: 75, amount: 600_000 },
  { nodeId: 2, title: "Day pass", count: 110, amount: 495_000 },
];

/** The texts of a chart's ticks (its svg's labels), and the figures' table's. */
const tickLabels = (container: HTMLElement) =>
  [...container.querySelectorAll("svg text")].map((text) => text.textContent?.replace(/\s/g, " ") ?? "");

describe("the dashboard's money axes", () => {
  it("writes sales over time as CHF 2K … CHF 10K, and 2 k CHF … 10 k CHF in French", () => {
    const english = renderInAdmin(<SalesOverTimeChart days={DAYS} />);
    expect(tickLabels(english.container)).toEqual(expect.arrayContaining(["CHF 0", "CHF 2K", "CHF 10K"]));
    expect(tickLabels(english.container).filter((label) => label.includes("CHF"))).not.toContainEqual(
      expect.stringMatching(/\.00|…/),
    );
    english.unmount();
    const french = renderInAdmin(<SalesOverTimeChart days={DAYS} />, "fr");
    expect(tickLabels(french.container)).toEqual(expect.arrayContaining(["0 CHF", "2 k CHF", "10 k CHF"]));
  });

  it("writes the articles' amounts in a few characters too, with the table's figures exact", () => {
    // jsdom draws the chart 0 px wide: only its first tick has room.
    const { container, getByText } = renderInAdmin(<SalesPerArticleChart articles={ARTICLES} />);
    expect(tickLabels(container)).toEqual(expect.arrayContaining(["CHF 0", "Weekend pass", "Day pass"]));
    expect(getByText(/CHF\s6.000\.00/)).toBeTruthy();
  });
});

import type { BasketDetail, BasketItem } from "@ticketing/shared/schemas/ticket-office";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { type BasketLine, basketLines } from "../lib/basket-lines";
import { formatMoney } from "../lib/format";

/**
 * The basket's lines (identical articles as one line "3 × Day pass") with their options and prices, and the
 * total. `lineAction` acts on a whole line (change its quantity), `itemAction` on each of its items (a ticket).
 */
export function BasketSummary({
  basket,
  lineAction,
  itemAction,
}: {
  basket: Pick<BasketDetail, "items" | "total">;
  lineAction?: (line: BasketLine) => ReactNode;
  itemAction?: (item: BasketItem) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const money = (cents: number) => formatMoney(cents, i18n.language);
  return (
    <>
      <ul className="basket-items">
        {basketLines(basket.items).map((line) => (
          <li key={line.key}>
            <div className="line">
              <span className="line-title">{t("basket.lineTitle", { count: line.quantity, title: line.title })}</span>
              <span className="line-price">{money(line.price)}</span>
            </div>
            {line.options.length > 0 && (
              <ul className="line-options" aria-label={t("basket.optionsOf", { title: line.title })}>
                {line.options.map((option) => (
                  <li key={option.id}>
                    {option.title} <span className="muted">+ {money(option.price)}</span>
                  </li>
                ))}
              </ul>
            )}
            {lineAction?.(line)}
            {itemAction && line.items.map((item) => <div key={item.id}>{itemAction(item)}</div>)}
          </li>
        ))}
      </ul>
      <p className="line total">
        <span>{t("basket.total")}</span>
        <strong>{money(basket.total)}</strong>
      </p>
    </>
  );
}

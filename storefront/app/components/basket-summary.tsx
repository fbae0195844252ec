import type { BasketDetail, BasketItem } from "@ticketing/shared/schemas/ticket-office";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "../lib/format";

/** The items of a basket with their options and prices, and the total. */
export function BasketSummary({
  basket,
  itemAction,
}: {
  basket: Pick<BasketDetail, "items" | "total">;
  itemAction?: (item: BasketItem) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const money = (cents: number) => formatMoney(cents, i18n.language);
  return (
    <>
      <ul className="basket-items">
        {basket.items.map((item) => (
          <li key={item.id}>
            <div className="line">
              <span className="line-title">{item.title}</span>
              <span className="line-price">{money(item.price)}</span>
            </div>
            {item.options.length > 0 && (
              <ul className="line-options" aria-label={t("basket.optionsOf", { title: item.title })}>
                {item.options.map((option) => (
                  <li key={option.id}>
                    {option.title} <span className="muted">+ {money(option.price)}</span>
                  </li>
                ))}
              </ul>
            )}
            {itemAction?.(item)}
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

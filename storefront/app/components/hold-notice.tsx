import type { BasketItem } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { basketLines } from "../lib/basket-lines";
import type { HoldNotice } from "../lib/baskets.server";

/** "2 × Day pass (Large)": identical articles as one line, their options in brackets. */
function Lines({ items }: { items: BasketItem[] }) {
  const { t } = useTranslation();
  return (
    <ul>
      {basketLines(items).map((line) => {
        const title = t("basket.lineTitle", { count: line.quantity, title: line.title });
        const options = line.options.map((option) => option.title).join(", ");
        return <li key={line.key}>{options ? `${title} (${options})` : title}</li>;
      })}
    </ul>
  );
}

/**
 * The buyer came back after their reservation ran out: what the ticket office could hold again (with the answers
 * and billing information they gave) and what the stock no longer has.
 */
export function HoldNoticeMessage({ notice }: { notice: HoldNotice }) {
  const { t } = useTranslation();
  const isAllBack = notice.unavailable.length === 0;
  return (
    <div className={isAllBack ? "alert alert-info" : "alert alert-warning"} role="status">
      <p>
        <strong>{t("hold.expired")}</strong>
      </p>
      {notice.refusal.map((message) => (
        <p key={message}>{message}</p>
      ))}
      {notice.restored.length > 0 && (
        <>
          <p>{t("hold.restored")}</p>
          <Lines items={notice.restored} />
        </>
      )}
      {notice.unavailable.length > 0 && (
        <>
          <p>{t("hold.unavailable")}</p>
          <Lines items={notice.unavailable} />
        </>
      )}
      {notice.restored.length > 0 && <p>{t("hold.answersKept")}</p>}
    </div>
  );
}

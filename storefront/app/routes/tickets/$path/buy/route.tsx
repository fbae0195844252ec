import type { BasketDetail, Tree } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { BasketSummary } from "#app/components/basket-summary.tsx";
import { CatalogueBranch } from "#app/components/catalogue.tsx";
import { ErrorMessages } from "#app/components/error-messages.tsx";
import { ErrorPage } from "#app/components/error-page.tsx";
import { HoldNoticeMessage } from "#app/components/hold-notice.tsx";
import { HoldTimerBox } from "#app/components/hold-timer.tsx";
import { Link } from "#app/components/link.tsx";
import { QuantityInput } from "#app/components/quantity-input.tsx";
import { useOffice } from "#app/components/use-office.ts";
import type { BasketLine } from "#app/lib/basket-lines.ts";
import { paymentTermExpired } from "#app/lib/basket-rules.ts";
import { findArticle, type QuantityBounds, quantityMax } from "#app/lib/catalogue.ts";
import { formatMoney, formatTime } from "#app/lib/format.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import { isAllSoldOut, isWaitingListAccepting, waitingListHref } from "#app/lib/waiting-list.ts";
import type { Route } from "./+types/route";

export { action, loader } from "./route.server";

function PromotionCodes({ basket, error }: { basket: BasketDetail | null; error: string[] | undefined }) {
  const { t } = useTranslation();
  const codes = basket?.promotionCodes ?? [];
  const errorText = error?.join(" ");
  return (
    <section className="promotion-codes" aria-labelledby="promotion-codes-title">
      <h3 id="promotion-codes-title">{t("promotionCode.title")}</h3>
      {codes.length > 0 && (
        <ul className="inline-list codes" aria-label={t("promotionCode.active")}>
          {codes.map((code) => (
            <li key={code.id}>
              <Form method="post" className="code">
                <span>
                  <strong>{code.value}</strong> <span className="muted">{code.name}</span>
                </span>
                <input type="hidden" name="codeId" value={code.id} />
                <button type="submit" name="intent" value="removeCode" className="link-button">
                  {t("promotionCode.remove")}
                  <span className="visually-hidden"> {code.value}</span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" className="stack" key={codes.length}>
        <div className={errorText ? "field field-invalid" : "field"}>
          <label htmlFor="promotion-code">{t("promotionCode.label")}</label>
          {errorText && (
            <p className="field-error" id="promotion-code-error" role="alert">
              {errorText}
            </p>
          )}
          <input
            id="promotion-code"
            name="promotionCode"
            type="text"
            autoComplete="off"
            aria-invalid={errorText ? true : undefined}
            aria-describedby={errorText ? "promotion-code-error" : undefined}
          />
        </div>
        <button type="submit" name="intent" value="addCode" className="button">
          {t("promotionCode.apply")}
        </button>
      </Form>
    </section>
  );
}

/** A basket line's quantity field with Update, and Remove: one plain form, so it works without JavaScript. */
function LineQuantity({ line, tree, bounds }: { line: BasketLine; tree: Tree; bounds: QuantityBounds }) {
  const { t } = useTranslation();
  const article = tree.root && line.nodeId !== null ? findArticle(tree.root, line.nodeId) : null;
  // The line's own items plus what one more add of the article may take.
  const max = line.quantity + (article ? quantityMax(article, bounds) : 0);
  const fieldId = `line-quantity-${line.key}`;
  return (
    <Form method="post" className="line-quantity" key={line.quantity}>
      <input type="hidden" name="lineKey" value={line.key} />
      <label htmlFor={fieldId} className="visually-hidden">
        {t("basket.quantityOf", { title: line.title })}
      </label>
      <QuantityInput id={fieldId} max={max} defaultValue={line.quantity} />
      <button type="submit" name="intent" value="updateLine" className="button button-small">
        {t("basket.update")}
      </button>
      {/* Removing needs no valid quantity. */}
      <button type="submit" name="intent" value="removeLine" className="link-button" formNoValidate>
        {t("basket.remove")}
        <span className="visually-hidden"> {line.title}</span>
      </button>
    </Form>
  );
}

export default function Buy({ loaderData, actionData }: Route.ComponentProps) {
  const { tree, basket, holdNotice, hold, turnUntil, areBasketActionsAllowed } = loaderData;
  const { t, i18n } = useTranslation();
  const { base, event } = useOffice();
  const articleError =
    actionData?.target === "article" && actionData.nodeId
      ? { nodeId: actionData.nodeId, errors: actionData.errors }
      : null;
  // A sold-out article (or the whole event) leads to the waiting list while the list takes names.
  const joinHref = isWaitingListAccepting(event) ? (nodeId: number) => waitingListHref(base, nodeId) : null;
  const bounds: QuantityBounds = {
    heldCount: basket?.items.length ?? 0,
    maxItemsPerBasket: event.maxItemsPerBasket,
  };
  return (
    <>
      <title>{t("buy.title")}</title>
      <h1>{t("buy.title")}</h1>
      {holdNotice && <HoldNoticeMessage notice={holdNotice} />}
      {hold && <HoldTimerBox hold={hold} errors={actionData?.target === "hold" ? actionData.errors : undefined} />}
      {turnUntil && (
        <p className="alert alert-info" role="status">
          {t("waitingRoom.turnUntil", { time: formatTime(turnUntil, i18n.language) })}
        </p>
      )}
      {basket && basket.items.length > 0 && (
        // On a phone the basket sits below the catalogue.
        <p className="basket-jump">
          <a href="#basket-title">
            {t("basket.jump", {
              count: basket.items.length,
              total: formatMoney(basket.total, i18n.language),
            })}
          </a>
        </p>
      )}
      {!areBasketActionsAllowed && (
        <p className="alert alert-info" role="status">
          {t("welcome.registrationsClosed")}
        </p>
      )}
      {paymentTermExpired(basket) && (
        <p className="alert alert-info" role="status">
          {t("buy.paymentExpired", { minutes: event.paymentTermMinutes })}
        </p>
      )}
      {joinHref && isAllSoldOut(tree.root) && (
        <p className="alert alert-info" role="status">
          {t("waitingList.allSoldOut")}
        </p>
      )}
      {actionData?.target === "page" && <ErrorMessages errors={actionData.errors} />}
      <div className="buy-layout">
        <div className="catalogue">
          {/* A root the visitor may not see (its access rule or availability window) leaves nothing to buy. */}
          {tree.root && (
            <CatalogueBranch
              node={tree.root}
              canAdd={areBasketActionsAllowed}
              formKey={basket?.items.length ?? 0}
              error={articleError}
              basket={bounds}
              waitingListHref={joinHref}
            />
          )}
        </div>
        <aside className="basket card" aria-labelledby="basket-title">
          <h2 id="basket-title">{t("basket.title")}</h2>
          {!basket || basket.items.length === 0 ? (
            <p className="muted">{t("basket.empty")}</p>
          ) : (
            <>
              {actionData?.target === "basket" && <ErrorMessages errors={actionData.errors} />}
              <BasketSummary
                basket={basket}
                lineAction={(line) =>
                  areBasketActionsAllowed && <LineQuantity line={line} tree={tree} bounds={bounds} />
                }
              />
              <Link to={officeHref(base, "checkout/forms")} className="button button-primary button-block">
                {t("basket.checkout")}
              </Link>
            </>
          )}
          {areBasketActionsAllowed && (
            <PromotionCodes
              basket={basket}
              error={actionData?.target === "promotionCode" ? actionData.errors : undefined}
            />
          )}
        </aside>
      </div>
    </>
  );
}

/** Inside the ticket office's frame: a refusal here (registrations closed) keeps the event's name above it. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

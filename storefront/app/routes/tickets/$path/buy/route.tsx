import type { BasketDetail, Tree } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { BasketSummary } from "#app/components/basket-summary.tsx";
import { CatalogueBranch } from "#app/components/catalogue.tsx";
import { ErrorMessages } from "#app/components/error-messages.tsx";
import { ErrorPage } from "#app/components/error-page.tsx";
import { HoldNoticeMessage } from "#app/components/hold-notice.tsx";
import { QuantityInput } from "#app/components/quantity-input.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { getFixedT } from "#app/i18n.server.ts";
import { type ApiClient, ApiError } from "#app/lib/api.server.ts";
import { type BasketLine, basketLines, lineChange } from "#app/lib/basket-lines.ts";
import { buyRedirect, paymentTermExpired } from "#app/lib/basket-rules.ts";
import { loadOpenBasket, openBasketForAdding } from "#app/lib/baskets.server.ts";
import { chosenOptionIds, findArticle, positiveInt, type QuantityBounds, quantityMax } from "#app/lib/catalogue.ts";
import { formatMoney, formatTime } from "#app/lib/format.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import type { Route } from "./+types/route";

/** Guards of `buy` (SPEC 2.3): the ticket office may change baskets, the visitor is logged in, not paying. */
async function openBuy(args: Route.LoaderArgs | Route.ActionArgs) {
  const office = await TicketOffice.open(args);
  // SPEC 5: basket modification only for previewers or when the event allows it, else 404 (saying so).
  if (!office.areBasketActionsAllowed) throw await office.registrationsClosed();
  const api = await office.requireLoginApi();
  return { office, api };
}

export async function loader(args: Route.LoaderArgs) {
  const { office, api } = await openBuy(args);
  const { basket, holdNotice } = await loadOpenBasket(office, api, { holdAgain: true });
  const target = buyRedirect(basket);
  if (target) throw await office.redirect(office.href(target));
  const tree = await api.get<Tree>(`/frontend/events/${office.event.id}/tree`, {
    basketId: basket?.id,
    testing: office.testing,
  });
  return office.data({ tree, basket, holdNotice, areBasketActionsAllowed: office.areBasketActionsAllowed });
}

/**
 * What a refused action shows, and where: beside an article, beside the promotion code field, in the basket
 * (a line's quantity), or on top.
 */
type BuyActionData = {
  target: "article" | "promotionCode" | "basket" | "page";
  nodeId: number | null;
  errors: string[];
};

/**
 * The quantity asked in a form: a whole number from 1 to the basket's maximum (the field's own bounds, checked
 * again here for a browser that did not), else null. The API still decides what the stock allows.
 */
function askedQuantity(form: FormData, office: TicketOffice) {
  const quantity = positiveInt(form.get("quantity"));
  return quantity !== null && quantity <= office.event.maxItemsPerBasket ? quantity : null;
}

/** Changes a basket line to the quantity asked: takes out its newest items, or adds more with the same options. */
async function changeLine(office: TicketOffice, api: ApiClient, lineKey: string, quantity: number) {
  const { basket } = await loadOpenBasket(office, api);
  const line = basket && basketLines(basket.items).find((candidate) => candidate.key === lineKey);
  // A line gone meanwhile (another tab, an expired hold): the page shows the basket as it is.
  if (!basket || !line) return;
  const { remove, add } = lineChange(line, quantity);
  for (const itemId of remove) await api.delete(`/frontend/selected-nodes/${itemId}`);
  // An article whose element is gone can still be removed, not added again.
  if (add > 0 && line.nodeId !== null)
    await api.post("/frontend/selected-nodes", {
      basketId: basket.id,
      nodeId: line.nodeId,
      optionNodeIds: line.optionNodeIds,
      quantity: add,
    });
}

export async function action(args: Route.ActionArgs) {
  const form = await readPostedForm(args.request);
  const { office, api } = await openBuy(args);
  const intent = form.get("intent");
  const nodeId = positiveInt(form.get("nodeId"));
  const lineKey = form.get("lineKey");
  const target: BuyActionData["target"] =
    intent === "addCode" || intent === "removeCode"
      ? "promotionCode"
      : nodeId
        ? "article"
        : typeof lineKey === "string"
          ? "basket"
          : "page";
  const refuse = (errors: string[], status: number) =>
    office.data<BuyActionData>({ target, nodeId, errors }, { status });
  const refuseQuantity = async () => {
    const t = getFixedT(office.language);
    return refuse([t("buy.quantityInvalid", { max: office.event.maxItemsPerBasket })], 400);
  };
  try {
    if (!office.areBasketActionsAllowed) {
      const t = getFixedT(office.language);
      return refuse([t("welcome.registrationsClosed")], 409);
    }
    if (intent === "removeLine" && typeof lineKey === "string") {
      await changeLine(office, api, lineKey, 0);
    } else if (intent === "updateLine" && typeof lineKey === "string") {
      const quantity = askedQuantity(form, office);
      if (quantity === null) return refuseQuantity();
      await changeLine(office, api, lineKey, quantity);
    } else if (intent === "addCode") {
      const value = String(form.get("promotionCode") ?? "").trim();
      if (!value) {
        const t = getFixedT(office.language);
        return refuse([t("forms.errors.required")], 400);
      }
      // A code may come before the first article: the basket is opened for it (prices then include it).
      const basketId = await openBasketForAdding(office, api);
      await api.post("/frontend/selected-promotion-codes", { basketId, value });
    } else if (intent === "removeCode") {
      const codeId = positiveInt(form.get("codeId"));
      if (codeId) await api.delete(`/frontend/selected-promotion-codes/${codeId}`);
    } else if (nodeId) {
      const quantity = askedQuantity(form, office);
      if (quantity === null) return refuseQuantity();
      const basketId = await openBasketForAdding(office, api);
      await api.post("/frontend/selected-nodes", { basketId, nodeId, optionNodeIds: chosenOptionIds(form), quantity });
    }
  } catch (error) {
    // 409 sold out or already active, 400 a choice or code the API refuses: shown where it was made, with or
    // without JavaScript.
    if (error instanceof ApiError) return refuse(error.errors, error.status);
    throw error;
  }
  return office.redirect(office.href("buy"));
}

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
  const { tree, basket, holdNotice, areBasketActionsAllowed } = loaderData;
  const { t, i18n } = useTranslation();
  const { base, event } = useOffice();
  const articleError =
    actionData?.target === "article" && actionData.nodeId
      ? { nodeId: actionData.nodeId, errors: actionData.errors }
      : null;
  const bounds: QuantityBounds = {
    heldCount: basket?.items.length ?? 0,
    maxItemsPerBasket: event.maxItemsPerBasket,
  };
  return (
    <>
      <title>{t("buy.title")}</title>
      <h1>{t("buy.title")}</h1>
      {holdNotice && <HoldNoticeMessage notice={holdNotice} />}
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
      {!areBasketActionsAllowed && <p className="alert alert-info">{t("welcome.registrationsClosed")}</p>}
      {paymentTermExpired(basket) && (
        <p className="alert alert-info" role="status">
          {t("buy.paymentExpired", { minutes: event.paymentTermMinutes })}
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
              {basket.expiresAt && (
                <p className="muted small">
                  {t("basket.heldUntil", { time: formatTime(basket.expiresAt, i18n.language) })}
                </p>
              )}
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

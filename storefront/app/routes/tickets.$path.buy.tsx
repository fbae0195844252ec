import { useTranslation } from "react-i18next";
import { data, Form, Link, type ShouldRevalidateFunction, useNavigation } from "react-router";
import { BasketSummary } from "../components/basket-summary";
import { ErrorMessages } from "../components/error-messages";
import { useOffice } from "../components/use-office";
import { useSubmitOnce } from "../components/use-submit-once";
import { getFixedT } from "../i18n.server";
import { ApiError } from "../lib/api.server";
import type { Tree, TreeNode } from "../lib/api-types";
import { buyRedirect } from "../lib/basket-rules";
import { loadOpenBasket, openBasketForAdding } from "../lib/baskets.server";
import { formatMoney, formatTime } from "../lib/format";
import { officeHref } from "../lib/office-paths";
import { TicketOffice } from "../lib/ticket-office.server";
import type { Route } from "./+types/tickets.$path.buy";

/** Guards of `buy` (SPEC 2.3): the ticket office may change baskets, the visitor is logged in, not paying. */
async function openBuy(args: Route.LoaderArgs | Route.ActionArgs) {
  const office = await TicketOffice.open(args);
  // SPEC 5: basket modification only for previewers or when the event allows it, else 404.
  if (!office.testing && !office.event.isBasketItemModificationAllowed) throw data(null, { status: 404 });
  const api = await office.requireLoginApi();
  return { office, api };
}

export async function loader(args: Route.LoaderArgs) {
  const { office, api } = await openBuy(args);
  const { basket } = await loadOpenBasket(office, api);
  const target = buyRedirect(basket);
  if (target) throw await office.redirect(office.href(target));
  const tree = await api.get<Tree>(`/frontend/events/${office.event.id}/tree`, {
    basketId: basket?.id,
    testing: office.testing,
  });
  return office.data({ tree, basket, areBasketActionsAllowed: office.areBasketActionsAllowed });
}

const positiveInt = (value: FormDataEntryValue | null) => {
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : null;
};

export async function action(args: Route.ActionArgs) {
  const { office, api } = await openBuy(args);
  const form = await args.request.formData();
  const nodeId = positiveInt(form.get("nodeId"));
  try {
    if (!office.areBasketActionsAllowed) {
      const t = await getFixedT(office.language);
      return office.data({ nodeId, errors: [t("welcome.registrationsClosed")] }, { status: 409 });
    }
    if (form.get("intent") === "remove") {
      const itemId = positiveInt(form.get("itemId"));
      if (itemId) await api.delete(`/frontend/selected-nodes/${itemId}`);
    } else if (nodeId) {
      const basketId = await openBasketForAdding(office, api);
      const optionNodeIds = form
        .getAll("optionNodeId")
        .map(positiveInt)
        .filter((id) => id !== null);
      await api.post("/frontend/selected-nodes", { basketId, nodeId, optionNodeIds });
    }
  } catch (error) {
    // 409 sold out, 400 a choice the API refuses: shown beside the article, with or without JavaScript.
    if (error instanceof ApiError) return office.data({ nodeId, errors: error.errors }, { status: error.status });
    throw error;
  }
  return office.redirect(office.href("buy"));
}

/** A refused add (sold out) changed what is left: show the fresh stock, also with JavaScript. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

/** The options of an article, also when they sit in groups of options. */
function optionsOf(node: TreeNode): TreeNode[] {
  return node.children.flatMap((child) =>
    child.category === "option" ? [child] : child.category === "article" ? [] : optionsOf(child),
  );
}

interface CatalogueProps {
  canAdd: boolean;
  /** Changes when the basket does, so the option checkboxes start unticked again after an add. */
  formKey: number;
}

function ArticleCard({ article, canAdd, formKey, errors }: CatalogueProps & { article: TreeNode; errors?: string[] }) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const isAdding = navigation.formData?.get("nodeId") === String(article.id);
  const submitOnce = useSubmitOnce();
  const stock = article.stock?.display ?? "available";
  const options = optionsOf(article);
  const titleId = `article-${article.id}`;
  return (
    <article className="card article" aria-labelledby={titleId}>
      <div className="line">
        <h3 id={titleId}>{article.title}</h3>
        <span className="price">{formatMoney(article.articleCalculatedPrice ?? 0, i18n.language)}</span>
      </div>
      {article.description && <p>{article.description}</p>}
      <p className={`stock stock-${stock}`}>{t(`buy.stock.${stock}`)}</p>
      <ErrorMessages errors={errors} />
      {canAdd && stock !== "out_of_stock" && (
        <Form method="post" preventScrollReset key={formKey} onSubmit={submitOnce}>
          <input type="hidden" name="nodeId" value={article.id} />
          {options.length > 0 && (
            <fieldset className="options">
              <legend>{t("buy.options")}</legend>
              {options.map((option) => (
                <label key={option.id} className="checkbox">
                  <input
                    type="checkbox"
                    name="optionNodeId"
                    value={option.id}
                    disabled={option.stock?.display === "out_of_stock"}
                  />
                  <span>
                    {option.title}{" "}
                    <span className="muted">+ {formatMoney(option.optionCalculatedPrice ?? 0, i18n.language)}</span>
                    {option.stock?.display === "out_of_stock" && <> ({t("buy.stock.out_of_stock")})</>}
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          <button type="submit" name="intent" value="add" className="button button-primary" aria-disabled={isAdding}>
            {t("buy.add")}
          </button>
        </Form>
      )}
    </article>
  );
}

function TreeBranch({
  node,
  error,
  ...props
}: CatalogueProps & { node: TreeNode; error?: { nodeId: number | null; errors: string[] } }) {
  const errorsOf = (id: number) => (error?.nodeId === id ? error.errors : undefined);
  return (
    <>
      {node.children.map((child) =>
        child.category === "article" ? (
          <ArticleCard key={child.id} article={child} errors={errorsOf(child.id)} {...props} />
        ) : child.category === "option" ? null : (
          <section key={child.id} className="group" aria-labelledby={`group-${child.id}`}>
            <h2 id={`group-${child.id}`}>{child.title}</h2>
            <TreeBranch node={child} error={error} {...props} />
          </section>
        ),
      )}
    </>
  );
}

export default function Buy({ loaderData, actionData }: Route.ComponentProps) {
  const { tree, basket, areBasketActionsAllowed } = loaderData;
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const { base } = useOffice();
  const submitOnce = useSubmitOnce();
  const removingId = navigation.formData?.get("intent") === "remove" ? navigation.formData.get("itemId") : null;
  return (
    <>
      <title>{t("buy.title")}</title>
      <h1>{t("buy.title")}</h1>
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
      {actionData && actionData.nodeId === null && <ErrorMessages errors={actionData.errors} />}
      <div className="buy-layout">
        <div className="catalogue">
          <TreeBranch
            node={tree.root}
            canAdd={areBasketActionsAllowed}
            formKey={basket?.items.length ?? 0}
            error={actionData}
          />
        </div>
        <aside className="basket card" aria-labelledby="basket-title">
          <h2 id="basket-title">{t("basket.title")}</h2>
          {!basket || basket.items.length === 0 ? (
            <p className="muted">{t("basket.empty")}</p>
          ) : (
            <>
              <BasketSummary
                basket={basket}
                itemAction={(item) =>
                  areBasketActionsAllowed && (
                    <Form method="post" preventScrollReset onSubmit={submitOnce}>
                      <input type="hidden" name="itemId" value={item.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="remove"
                        className="link-button"
                        aria-disabled={removingId === String(item.id)}
                      >
                        {t("basket.remove")}
                      </button>
                    </Form>
                  )
                }
              />
              {basket.expiresAt && (
                <p className="muted small">
                  {t("basket.heldUntil", { time: formatTime(basket.expiresAt, i18n.language) })}
                </p>
              )}
              <Link
                to={officeHref(base, "checkout/billing-information")}
                className="button button-primary button-block"
              >
                {t("basket.checkout")}
              </Link>
            </>
          )}
        </aside>
      </div>
    </>
  );
}

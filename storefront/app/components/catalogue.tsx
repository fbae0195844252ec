// The buy page's catalogue: articles as cards, groups of articles as sections, options (and groups of
// options) inside each article's form. Works without JavaScript: one plain form per article.

import type { TreeNode } from "@ticketing/shared/schemas/ticket-office";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Link } from "#app/components/link.tsx";
import {
  holdsArticles,
  isGroup,
  optionFieldName,
  type QuantityBounds,
  quantityMax,
  type RangeHint,
  rangeHint,
} from "../lib/catalogue";
import { formatMoney } from "../lib/format";
import { ErrorMessages } from "./error-messages";
import { QuantityInput } from "./quantity-input";

interface CatalogueProps {
  canAdd: boolean;
  /** Changes when the basket does, so the option inputs start unticked again after an add. */
  formKey: number;
  /** A refused add: its messages are shown beside the article. */
  error?: { nodeId: number; errors: string[] } | null;
  /** What bounds the quantity field besides the stock. */
  basket: QuantityBounds;
  /** Where a sold-out article's buyer joins its waiting list; null when the event's list takes nobody now. */
  waitingListHref?: ((nodeId: number) => string) | null;
}

function RangeHintText({ hint, id }: { hint: RangeHint | null; id?: string }) {
  const { t } = useTranslation();
  if (!hint) return null;
  const text =
    hint.kind === "exactly"
      ? t("buy.range.exactly", { count: hint.count })
      : hint.kind === "between"
        ? t("buy.range.between", { min: hint.min, max: hint.max })
        : hint.kind === "atLeast"
          ? t("buy.range.atLeast", { min: hint.min })
          : t("buy.range.upTo", { max: hint.max });
  return (
    <p className="range-hint muted small" id={id}>
      {text}
    </p>
  );
}

function OptionInput({ option, group }: { option: TreeNode; group: TreeNode | null }) {
  const { t, i18n } = useTranslation();
  const isSoldOut = option.stock?.display === "out_of_stock";
  const isRadio = group?.category === "single_choice";
  return (
    <label className="checkbox">
      <input
        type={isRadio ? "radio" : "checkbox"}
        name={optionFieldName(group)}
        value={option.id}
        disabled={isSoldOut}
        // A single choice that must be made: the browser asks for it (the API checks ranges it can see).
        required={isRadio && (group?.cart?.rangeMin ?? 0) > 0}
      />
      <span>
        {option.title} <span className="muted">+ {formatMoney(option.optionCalculatedPrice ?? 0, i18n.language)}</span>
        {isSoldOut && <> ({t("buy.stock.out_of_stock")})</>}
      </span>
    </label>
  );
}

/** A group of options: radio buttons for a single choice, checkboxes otherwise, its range as a hint. */
function OptionGroup({ group }: { group: TreeNode }) {
  const { t } = useTranslation();
  const hint = rangeHint(group);
  const hintId = `range-${group.id}`;
  const isSingle = group.category === "single_choice";
  return (
    <fieldset className="options" aria-describedby={hint ? hintId : undefined}>
      <legend>{group.title || t("buy.options")}</legend>
      {group.description && <p className="small">{group.description}</p>}
      <RangeHintText hint={hint} id={hintId} />
      {isSingle && (group.cart?.rangeMin ?? 0) === 0 && (
        // Without it a radio button, once ticked, could not be unticked.
        <label className="checkbox">
          <input type="radio" name={optionFieldName(group)} value="" defaultChecked />
          <span>{t("buy.noOption")}</span>
        </label>
      )}
      <OptionChoices node={group} group={group} />
    </fieldset>
  );
}

function OptionChoices({ node, group }: { node: TreeNode; group: TreeNode | null }) {
  return (
    <>
      {node.children.map((child) =>
        child.category === "option" ? (
          <OptionInput key={child.id} option={child} group={group} />
        ) : isGroup(child) ? (
          <OptionGroup key={child.id} group={child} />
        ) : null,
      )}
    </>
  );
}

function ArticleCard({
  article,
  canAdd,
  formKey,
  error,
  basket,
  waitingListHref,
}: CatalogueProps & { article: TreeNode }) {
  const { t, i18n } = useTranslation();
  const stock = article.stock?.display ?? "available";
  const looseOptions = article.children.some((child) => child.category === "option");
  const optionGroups = article.children.filter(isGroup);
  const titleId = `article-${article.id}`;
  // At least 1: when nothing more fits, the add is still offered and the API says why it cannot be done.
  const max = Math.max(1, quantityMax(article, basket));
  return (
    <article className="card article" aria-labelledby={titleId}>
      {article.imageUrl && article.isImageDisplayable !== false && (
        <img className="article-image" src={article.imageUrl} alt="" loading="lazy" />
      )}
      <div className="line">
        {/* The title names the card for screen readers even when the organiser hides it on screen. */}
        <h3 id={titleId} className={article.isTitleDisplayable === false ? "visually-hidden" : undefined}>
          {article.title}
        </h3>
        <span className="price">{formatMoney(article.articleCalculatedPrice ?? 0, i18n.language)}</span>
      </div>
      {article.description && article.isDescriptionDisplayable !== false && <p>{article.description}</p>}
      {article.isTagsDisplayable !== false && (article.tags?.length ?? 0) > 0 && (
        <ul className="tags" aria-label={t("buy.tags")}>
          {article.tags?.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>
      )}
      <p className={`stock stock-${stock}`}>{t(`buy.stock.${stock}`)}</p>
      {stock === "out_of_stock" && waitingListHref && (
        <p>
          <Link to={waitingListHref(article.id)} className="button">
            {t("waitingList.joinLink")}
            <span className="visually-hidden"> {article.title}</span>
          </Link>
        </p>
      )}
      <ErrorMessages errors={error?.nodeId === article.id ? error.errors : undefined} />
      {canAdd && stock !== "out_of_stock" && (
        <Form method="post" key={formKey}>
          <input type="hidden" name="nodeId" value={article.id} />
          {looseOptions && (
            <fieldset className="options">
              <legend>{t("buy.options")}</legend>
              {article.children
                .filter((child) => child.category === "option")
                .map((option) => (
                  <OptionInput key={option.id} option={option} group={null} />
                ))}
            </fieldset>
          )}
          {optionGroups.map((group) => (
            <OptionGroup key={group.id} group={group} />
          ))}
          <div className="field field-quantity">
            <label htmlFor={`quantity-${article.id}`}>{t("buy.quantity")}</label>
            <QuantityInput id={`quantity-${article.id}`} max={max} defaultValue={1} />
          </div>
          <button type="submit" name="intent" value="add" className="button button-primary">
            {t("buy.add")}
          </button>
        </Form>
      )}
    </article>
  );
}

/** The articles under `node`; groups of articles become titled sections with their range as a hint. */
export function CatalogueBranch({ node, ...props }: CatalogueProps & { node: TreeNode }) {
  return (
    <>
      {node.children.map((child) =>
        child.category === "article" ? (
          <ArticleCard key={child.id} article={child} {...props} />
        ) : isGroup(child) && holdsArticles(child) ? (
          <section key={child.id} className="group" aria-labelledby={`group-${child.id}`}>
            <h2 id={`group-${child.id}`}>{child.title}</h2>
            {child.description && <p>{child.description}</p>}
            <RangeHintText hint={rangeHint(child)} />
            <CatalogueBranch node={child} {...props} />
          </section>
        ) : null,
      )}
    </>
  );
}

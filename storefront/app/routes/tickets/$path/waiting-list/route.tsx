import { LIVE_WAITING_LIST_ENTRY_STATES } from "@ticketing/shared/constants";
import type { OwnWaitingListEntry } from "@ticketing/shared/schemas/waiting-list";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { ErrorMessages } from "#app/components/error-messages.tsx";
import { ErrorPage } from "#app/components/error-page.tsx";
import { Link } from "#app/components/link.tsx";
import { useOffice } from "#app/components/use-office.ts";
import { formatDateRange } from "#app/lib/format.ts";
import { officeHref } from "#app/lib/office-paths.ts";
import { canLeave, entryView } from "#app/lib/waiting-list.ts";
import type { Route } from "./+types/route";
import type { ArticleToJoin, WaitingListActionData, WaitingListPageData } from "./route.server";

export { action, loader } from "./route.server";

/** An instant as the office writes dates (a range of one instant is that instant, written once). */
const formatInstant = (iso: string, language: string) => formatDateRange(iso, iso, language);

/** One entry: what was asked, where it stands, and Leave while it may still be left. */
function EntryItem({ entry, now, errors }: { entry: OwnWaitingListEntry; now: Date; errors: string[] | undefined }) {
  const { t, i18n } = useTranslation();
  const { base } = useOffice();
  const view = entryView(entry, now);
  const titleId = `entry-${entry.id}`;
  return (
    <li className="card" aria-labelledby={titleId}>
      <h3 id={titleId}>{entry.title}</h3>
      <p>
        {t("waitingList.entries.quantity")} <strong>{entry.quantity}</strong>
      </p>
      <p>
        {t("waitingList.entries.stateLabel")} <strong>{t(`waitingList.entries.state.${view}`)}</strong>
      </p>
      {view === "waiting" && entry.position !== null && (
        <p>{t("waitingList.entries.position", { position: entry.position })}</p>
      )}
      {(view === "offerMailed" || view === "offerOpened") && entry.offerExpiresAt && (
        <p className="alert alert-info" role="status">
          {t("waitingList.entries.offeredUntil", {
            count: entry.offeredQuantity ?? entry.quantity,
            time: formatInstant(entry.offerExpiresAt, i18n.language),
          })}{" "}
          {view === "offerMailed" &&
            t("waitingList.entries.checkMail", { count: entry.offeredQuantity ?? entry.quantity })}
        </p>
      )}
      {view === "offerOpened" && (
        <p>
          <Link to={officeHref(base, "checkout/forms")} className="button button-primary">
            {t("waitingList.entries.continue")}
          </Link>
        </p>
      )}
      <ErrorMessages errors={errors} />
      {canLeave(entry) && view !== "lapsed" && (
        <Form method="post">
          <input type="hidden" name="entryId" value={entry.id} />
          <button type="submit" name="intent" value="leave" className="button">
            {view === "offerMailed" ? t("waitingList.entries.decline") : t("waitingList.entries.leave")}
            <span className="visually-hidden"> {entry.title}</span>
          </button>
        </Form>
      )}
    </li>
  );
}

/** The join form: how many tickets, bounded by the event's caps (the API checks again). */
function JoinForm({ article, max, errors }: { article: ArticleToJoin; max: number; errors: string[] | undefined }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="stack">
      <input type="hidden" name="nodeId" value={article.nodeId} />
      <div className="field field-quantity">
        <label htmlFor="waiting-list-quantity">{t("waitingList.join.quantity")}</label>
        <select id="waiting-list-quantity" name="quantity" defaultValue="1">
          {Array.from({ length: max }, (_, index) => index + 1).map((quantity) => (
            <option key={quantity} value={quantity}>
              {quantity}
            </option>
          ))}
        </select>
      </div>
      <ErrorMessages errors={errors} />
      <button type="submit" name="intent" value="join" className="button button-primary">
        {t("waitingList.join.submit")}
      </button>
    </Form>
  );
}

/** Joining needs a proved email: the login page (not signed in), or a link sent from here (signed in as a guest). */
function EmailNeeded({ data, result }: { data: WaitingListPageData; result: WaitingListActionData | undefined }) {
  const { t } = useTranslation();
  if (data.isEmailSent)
    return (
      <p className="alert alert-success" role="status">
        {t("waitingList.signIn.sent")}
      </p>
    );
  const emailErrors = result?.target === "email" ? result.errors : undefined;
  return (
    <div className="stack">
      <p className="alert alert-info">{t("waitingList.signIn.text")}</p>
      {!data.isSignedIn ? (
        <p>
          <Link to={data.loginHref} className="button button-primary">
            {t("waitingList.signIn.link")}
          </Link>
        </p>
      ) : data.offersEmailLink ? (
        // A guest is signed in already: the login page would send them straight back, so the link is asked here.
        <Form method="post" className="stack">
          <div className={emailErrors?.length ? "field field-invalid" : "field"}>
            <label htmlFor="waiting-list-email">{t("login.email")}</label>
            <input
              id="waiting-list-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue={result?.email}
              aria-invalid={emailErrors?.length ? true : undefined}
              aria-describedby={emailErrors?.length ? "waiting-list-email-error" : undefined}
            />
          </div>
          <ErrorMessages errors={emailErrors} id="waiting-list-email-error" />
          <button type="submit" name="intent" value="email" className="button button-primary">
            {t("login.emailSubmit")}
          </button>
        </Form>
      ) : (
        <p className="muted">{t("waitingList.signIn.unavailable")}</p>
      )}
    </div>
  );
}

/** The `?article=` part: the article's join form, or why it cannot be joined (yet, or at all). */
function JoinSection({ data, result }: { data: WaitingListPageData; result: WaitingListActionData | undefined }) {
  const { t } = useTranslation();
  const { base } = useOffice();
  const { article } = data;
  if (data.isArticleMissing)
    return (
      <p className="alert alert-warning" role="status">
        {t("waitingList.join.notFound")}
      </p>
    );
  if (!article) return null;
  const already = data.entries.some(
    (entry) =>
      entry.nodeId === article.nodeId && (LIVE_WAITING_LIST_ENTRY_STATES as readonly string[]).includes(entry.state),
  );
  if (already) return null;
  const joinErrors = result?.target === "join" ? result.errors : undefined;
  return (
    <section className="card stack" aria-labelledby="join-title">
      <h2 id="join-title">{t("waitingList.join.title", { title: article.title })}</h2>
      {!article.isSoldOut ? (
        <p>
          {t("waitingList.join.notSoldOut", { title: article.title })}{" "}
          <Link to={officeHref(base, "buy")}>{t("waitingList.join.toBuy")}</Link>
        </p>
      ) : !data.isAccepting ? (
        <p className="alert alert-info" role="status">
          {t("waitingList.join.closed")}
        </p>
      ) : data.hasEmail ? (
        <JoinForm article={article} max={data.quantityMax} errors={joinErrors} />
      ) : (
        <>
          {/* The API's own words when it refused (an email needed), then how to sign in with one. */}
          <ErrorMessages errors={joinErrors} />
          <EmailNeeded data={data} result={result} />
        </>
      )}
    </section>
  );
}

export default function WaitingList({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { base } = useOffice();
  const data = loaderData;
  const now = new Date(data.now);
  const title = t("waitingList.title");
  return (
    <section className="narrow stack">
      <title>{title}</title>
      <h1>{title}</h1>
      <p>{t("waitingList.intro")}</p>
      {actionData?.target === "leave" && !data.entries.some((entry) => entry.id === actionData.entryId) && (
        <ErrorMessages errors={actionData.errors} />
      )}
      {!data.hasList && data.entries.length === 0 && (
        <p className="alert alert-info" role="status">
          {t("waitingList.none")}
        </p>
      )}
      <JoinSection data={data} result={actionData} />
      {data.isSignedIn && (
        <section aria-labelledby="entries-title" className="stack">
          <h2 id="entries-title">{t("waitingList.entries.title")}</h2>
          {data.entries.length === 0 ? (
            <p className="muted">{t("waitingList.entries.none")}</p>
          ) : (
            <ul className="card-list">
              {data.entries.map((entry) => (
                <EntryItem
                  key={entry.id}
                  entry={entry}
                  now={now}
                  errors={
                    actionData?.target === "leave" && actionData.entryId === entry.id ? actionData.errors : undefined
                  }
                />
              ))}
            </ul>
          )}
        </section>
      )}
      {!data.isSignedIn && !data.article && <EmailNeeded data={data} result={actionData} />}
      <p>
        <Link to={officeHref(base, "buy")}>{t("waitingList.backToBuy")}</Link>
      </p>
    </section>
  );
}

/** Inside the ticket office's frame, like its other pages. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

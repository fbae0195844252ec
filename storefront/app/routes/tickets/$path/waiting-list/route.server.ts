import type { Tree } from "@ticketing/shared/schemas/ticket-office";
import type { OwnWaitingListEntry } from "@ticketing/shared/schemas/waiting-list";
import { getFixedT } from "#app/i18n.server.ts";
import { ApiError } from "#app/lib/api.server.ts";
import { findArticle, positiveInt } from "#app/lib/catalogue.ts";
import { currentPath, safeNextUrl } from "#app/lib/next-url.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import { hasProvedEmail, joinList, leaveEntry, listOwnEntries, sendLoginLink } from "#app/lib/waiting-list.server.ts";
import { isWaitingListAccepting, joinQuantity, joinQuantityMax, waitingListHref } from "#app/lib/waiting-list.ts";
import type { Route } from "./+types/route";

/** The article asked for by `?article=`: what the join form names, and whether it is still on sale. */
export interface ArticleToJoin {
  nodeId: number;
  title: string;
  isSoldOut: boolean;
}

export interface WaitingListPageData {
  isSignedIn: boolean;
  /** Signed in with an email address the ticket office proved: joining needs one. */
  hasEmail: boolean;
  /** The login page, coming back here. */
  loginHref: string;
  /** Whether this page may send a sign-in link itself (the event signs in by email; not a preview). */
  offersEmailLink: boolean;
  isEmailSent: boolean;
  entries: OwnWaitingListEntry[];
  /** `?article=`'s article; null without one, or when the buyer cannot see it (`isArticleMissing`). */
  article: ArticleToJoin | null;
  isArticleMissing: boolean;
  hasList: boolean;
  isAccepting: boolean;
  quantityMax: number;
  /** The time of the answer, for offers the sweep has not marked lapsed yet. */
  now: string;
}

export type WaitingListActionData = {
  target: "join" | "leave" | "email";
  entryId: number | null;
  errors: string[];
  email?: string;
};

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/** The article of `?article=` in the buyer's tree (as the buy page sees it), or null. */
async function articleToJoin(office: TicketOffice, nodeId: number): Promise<ArticleToJoin | null> {
  const api = office.isLoggedIn ? await office.requireLoginApi() : office.api;
  const tree = await api.get<Tree>(`/frontend/events/${office.event.id}/tree`, { testing: office.testing });
  const article = tree.root ? findArticle(tree.root, nodeId) : null;
  return article && { nodeId, title: article.title, isSoldOut: article.stock?.display === "out_of_stock" };
}

/**
 * The buyer's entries, and with `?article=` the form that joins the list for it. Anybody may read the page: a buyer
 * not signed in (or signed in as a guest) is told that joining needs an email address, and how to sign in with one.
 */
export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const query = new URL(args.request.url).searchParams;
  const nodeId = query.has("article") ? positiveInt(query.get("article")) : null;
  const article = nodeId === null ? null : await articleToJoin(office, nodeId);
  let entries: OwnWaitingListEntry[] = [];
  let hasEmail = false;
  if (office.isLoggedIn) {
    const api = await office.requireLoginApi();
    [entries, hasEmail] = await Promise.all([listOwnEntries(office, api), hasProvedEmail(office, api)]);
  }
  return office.data<WaitingListPageData>({
    isSignedIn: office.isLoggedIn,
    hasEmail,
    loginHref: office.loginUrl(),
    offersEmailLink: !office.testing && office.event.accessMethods.includes("trusted_email"),
    isEmailSent: query.get("emailSent") === "1",
    entries,
    article,
    isArticleMissing: query.has("article") && article === null,
    hasList: office.event.waitingList !== null,
    isAccepting: isWaitingListAccepting(office.event),
    quantityMax: joinQuantityMax(office.event),
    now: new Date().toISOString(),
  });
}

/** This page again (its `?article=` kept), with `extra` in its query: built from the request, kept on this site. */
function backHere(office: TicketOffice, extra: Record<string, string> = {}) {
  const url = new URL(currentPath(office.request), "http://site.invalid");
  url.searchParams.delete("emailSent");
  for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
  return safeNextUrl(`${url.pathname}${url.search}`, waitingListHref(office.location.base));
}

/** Join (`nodeId`, `quantity`), leave (`entryId`), or ask for a sign-in link by email (`email`); plain forms. */
export async function action(args: Route.ActionArgs) {
  const form = await readPostedForm(args.request);
  const office = await TicketOffice.open(args);
  const intent = form.get("intent");
  const t = getFixedT(office.language);
  const target: WaitingListActionData["target"] = intent === "leave" ? "leave" : intent === "email" ? "email" : "join";
  const entryId = positiveInt(form.get("entryId"));
  const refuse = (errors: string[], status: number, email?: string) =>
    office.data<WaitingListActionData>({ target, entryId, errors, email }, { status });
  if (intent === "email") {
    const email = String(form.get("email") ?? "").trim();
    if (office.testing || !office.event.accessMethods.includes("trusted_email"))
      return refuse([t("login.unavailable")], 409, email);
    if (!EMAIL.test(email)) return refuse([email ? t("forms.errors.email") : t("forms.errors.required")], 400, email);
    try {
      // The link in the mail signs the buyer in and comes back here, to the same article.
      await sendLoginLink(office, email, backHere(office));
    } catch (error) {
      if (error instanceof ApiError) return refuse(error.errors, error.status, email);
      throw error;
    }
    return office.redirect(backHere(office, { emailSent: "1" }));
  }
  const api = await office.requireLoginApi();
  try {
    if (intent === "leave") {
      if (entryId === null) return refuse([t("waitingList.entryMissing")], 400);
      await leaveEntry(api, entryId);
    } else {
      const nodeId = positiveInt(form.get("nodeId"));
      const max = joinQuantityMax(office.event);
      const quantity = joinQuantity(form.get("quantity"), max);
      if (nodeId === null) return refuse([t("waitingList.join.articleMissing")], 400);
      if (quantity === null) return refuse([t("buy.quantityInvalid", { max })], 400);
      await joinList(office, api, nodeId, quantity);
    }
  } catch (error) {
    // 409: an email needed, the list closed, already on it, still on sale, above the cap; 400: a bad choice.
    if (error instanceof ApiError) return refuse(error.errors, error.status);
    throw error;
  }
  return office.redirect(waitingListHref(office.location.base));
}

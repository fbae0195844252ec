import type { WaitingListOffer } from "@ticketing/shared/schemas/waiting-list";
import { data } from "react-router";
import { getFixedT } from "#app/i18n.server.ts";
import { ApiError, refusedStatus } from "#app/lib/api.server.ts";
import { safeNextUrl } from "#app/lib/next-url.ts";
import { readPostedForm } from "#app/lib/posted-form.server.ts";
import { TicketOffice } from "#app/lib/ticket-office.server.ts";
import { declineOffer, openOffer, readOffer } from "#app/lib/waiting-list.server.ts";
import { offerHref, waitingListHref } from "#app/lib/waiting-list.ts";
import type { Route } from "./+types/route";

export interface OfferPageData {
  /** Null when the link is not valid (a wrong code, another event's entry): `errors` says so. */
  offer: WaitingListOffer | null;
  code: string;
  errors: string[];
  /** The time of the answer, for an offer the sweep has not marked lapsed yet. */
  now: string;
}

export type OfferActionData = { errors: string[] };

/** The entry id of the path: digits only, else the 404 page. */
function entryIdOf(params: { id?: string }) {
  if (!params.id || !/^\d{1,15}$/.test(params.id)) throw data(null, { status: 404 });
  return Number(params.id);
}

/**
 * A refusal of the API as this page shows it: its status and words (a 400 or 409, or the 403/404 the client throws as
 * a page), or null for anything else (thrown on).
 */
function refusalOf(error: unknown): { status: number; errors: string[] } | null {
  if (error instanceof ApiError) return { status: error.status, errors: error.errors };
  const status = refusedStatus(error);
  if (status !== 403 && status !== 404) return null;
  const errors = (error as { data?: { errors?: unknown } }).data?.errors;
  return { status, errors: Array.isArray(errors) ? errors.filter((e): e is string => typeof e === "string") : [] };
}

/** The message of a refusal without words of its own: the link is not valid. */
const wordsOf = (office: TicketOffice, errors: string[]) =>
  errors.length > 0 ? errors : [getFixedT(office.language)("waitingList.offer.invalid")];

/**
 * The offer its mail links to, read with the mail's code: nothing is done on a GET (mail scanners follow links), the
 * buyer chooses Buy now or Decline.
 */
export async function loader(args: Route.LoaderArgs) {
  const office = await TicketOffice.open(args);
  const entryId = entryIdOf(args.params);
  const code = new URL(args.request.url).searchParams.get("code") ?? "";
  const now = new Date().toISOString();
  const refuse = (status: number, errors: string[]) =>
    office.data<OfferPageData>({ offer: null, code, errors: wordsOf(office, errors), now }, { status });
  if (!code) return refuse(404, []);
  try {
    const offer = await readOffer(office, entryId, code);
    if (offer.eventId !== office.event.id) return refuse(404, []);
    return office.data<OfferPageData>({ offer, code, errors: [], now });
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return refuse(refusal.status, refusal.errors);
  }
}

/**
 * Buy now: the offer opens into its basket, this browser is signed in as the entry's login (as a trusted email's link
 * signs in), and the buyer goes on to the checkout. Decline: the offer goes to the next person, and this page says so.
 */
export async function action(args: Route.ActionArgs) {
  const form = await readPostedForm(args.request);
  const office = await TicketOffice.open(args);
  const entryId = entryIdOf(args.params);
  const code = String(form.get("code") ?? "");
  const intent = form.get("intent");
  try {
    if (intent === "decline") {
      await declineOffer(office, entryId, code);
      const back = offerHref(office.location.base, entryId, code);
      return office.redirect(safeNextUrl(back, waitingListHref(office.location.base)));
    }
    await openOffer(office, entryId, code);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return office.data<OfferActionData>({ errors: wordsOf(office, refusal.errors) }, { status: refusal.status });
  }
  // The checkout's first step (skipped to billing when no article asks anything): the basket holds the offer.
  return office.redirect(office.href("checkout/forms"));
}

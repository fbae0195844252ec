// The waiting list's mails (issue 31, docs/decisions/0038): the confirmation of a join (the article, the quantity,
// the position, how to leave) and the offer (the article, the quantity offered, until when, and the link that opens
// it, carrying the offer's code). Rendered at delivery from the entry as it then is.
import { type Database, eq, schema, sql } from "@ticketing/db";
import type { Language } from "@ticketing/shared/constants";
import { inLanguage } from "@ticketing/shared/content-language";
import type { Translate } from "@ticketing/shared/i18n/translate";
import { ticketOfficeUrl } from "@ticketing/shared/ticket-office";
import { eventTitleIn } from "../../tickets/tickets.ts";
import { offerCode } from "../../waiting-list/offer-links.ts";
import {
  escapeHtml,
  htmlPage,
  type MailTemplateContext,
  paragraphs,
  type RenderedMail,
  senderOf,
  signatureOf,
} from "./layout.ts";

/**
 * The entry with its event and the event's mail settings; its position when it is still waiting; the French title
 * of its article (its element's, empty once the element is gone: the title kept at joining is read).
 */
async function loadEntry(database: Database, entryId: number) {
  const { waitingListEntries: entries, events, communicationSettings, nodes, nodeConfigurations } = schema;
  const row = await database.db
    .select({
      entry: entries,
      event: events,
      communication: communicationSettings,
      titleFr: nodeConfigurations.titleFr,
      ahead: sql<number>`(select count(*) from waiting_list_entries w
        where w.event_id = waiting_list_entries.event_id and w.testing = waiting_list_entries.testing
        and w.state = 'waiting' and w.id < waiting_list_entries.id)`,
    })
    .from(entries)
    .innerJoin(events, eq(events.id, entries.eventId))
    .leftJoin(communicationSettings, eq(communicationSettings.eventId, entries.eventId))
    .leftJoin(nodes, eq(nodes.id, entries.nodeId))
    .leftJoin(nodeConfigurations, eq(nodeConfigurations.id, nodes.configurationId))
    .where(eq(entries.id, entryId))
    .get();
  if (!row) throw new Error(`waiting list entry ${entryId} not found`);
  return { ...row, position: row.entry.state === "waiting" ? Number(row.ahead) + 1 : null };
}

// Offer times are shown where the events take place (as the event's dates: tickets/event-dates.ts).
const TIME_ZONE = "Europe/Zurich";
const untilFormats = new Map<Language, Intl.DateTimeFormat>();
/** `Saturday, 12 December 2026 at 19:00` / `samedi 12 décembre 2026 à 19:00`. */
function formatUntil(iso: string, language: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = untilFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language === "fr" ? "fr-CH" : "en-GB", {
      dateStyle: "full",
      timeStyle: "short",
      timeZone: TIME_ZONE,
    });
    untilFormats.set(language, format);
  }
  return format.format(date);
}

/** A mail of paragraphs and one link; a preview's list's mail starts by saying it is a test. */
function body(
  t: Translate,
  language: Language,
  testing: boolean,
  before: (string | null)[],
  link: { label: string; url: string },
  after: string[],
) {
  const notice = testing ? t("waiting_list_testing_notice") : null;
  const shown = [notice, ...before].filter((paragraph) => paragraph !== null);
  return {
    text: [...shown, `${link.label}\n${link.url}`, ...after].join("\n\n"),
    html: htmlPage(language, [
      notice ? `<p style="color:#c0392b"><strong>${escapeHtml(notice)}</strong></p>` : "",
      ...before.filter((paragraph) => paragraph !== null).map(paragraphs),
      `<p>${escapeHtml(link.label)}<br><a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>`,
      ...after.map(paragraphs),
    ]),
  };
}

export async function renderWaitingListMail(
  { database, config }: MailTemplateContext,
  t: Translate,
  language: Language,
  kind: "waiting_list_joined" | "waiting_list_offer",
  payload: { entry_id: number },
): Promise<RenderedMail> {
  const { entry, event, communication, position, titleFr } = await loadEntry(database, payload.entry_id);
  const values = { event: eventTitleIn(event, language), title: inLanguage(entry.title, titleFr, language) };
  const signature = signatureOf(t, language, { communication, event });
  if (kind === "waiting_list_joined") {
    const asked = t("waiting_list_joined.asked", { ...values, quantity: entry.quantity });
    return {
      subject: t("waiting_list_joined.subject", values),
      ...body(
        t,
        language,
        entry.testing,
        [
          t("greeting_anonymous"),
          asked,
          position === null ? null : t("waiting_list_joined.position", { position }),
          t("waiting_list_joined.next"),
        ],
        {
          label: t("waiting_list_joined.leave"),
          url: ticketOfficeUrl(config.publicUrl, event, entry.testing, "waiting-list"),
        },
        [signature],
      ),
      sender: senderOf({ communication }),
      attachments: [],
    };
  }
  const quantity = entry.offeredQuantity ?? entry.quantity;
  const code = offerCode(config.secretKey, entry);
  const until = entry.offerExpiresAt ? formatUntil(entry.offerExpiresAt, language) : "";
  return {
    subject: t("waiting_list_offer.subject", values),
    ...body(
      t,
      language,
      entry.testing,
      [
        t("greeting_anonymous"),
        t("waiting_list_offer.held", { ...values, quantity, until }),
        quantity < entry.quantity ? t("waiting_list_offer.partial", { asked: entry.quantity, quantity }) : null,
      ],
      {
        label: t("waiting_list_offer.open"),
        url: ticketOfficeUrl(config.publicUrl, event, entry.testing, `waiting-list/offers/${entry.id}?code=${code}`),
      },
      [t("waiting_list_offer.lapse"), signature],
    ),
    sender: senderOf({ communication }),
    attachments: [],
  };
}

// The pages of one event (docs/specification.md §2.2), each reachable from the others through the event's navigation:
// the editor, the settings, the communication, the sales pages (which carry `preview=true` to those that read it), the
// check-in at the door and the waiting list (which read it too) and the on-sale's waiting room.
import { withPreview } from "./sales/previewFlag.ts";
import { SALES_PAGE_LABELS, SALES_PAGES, type SalesPage, salesPagePath } from "./sales/salesPages.ts";

export const EVENT_PAGES = [
  "edit",
  "settings",
  "communication",
  ...SALES_PAGES,
  "check-in",
  "waiting-room",
  "waiting-list",
] as const;
export type EventPage = (typeof EVENT_PAGES)[number];

/** The i18n key of a page's name. */
export const EVENT_PAGE_LABELS: Record<EventPage, string> = {
  edit: "admin.eventNav.edit",
  settings: "admin.eventNav.settings",
  communication: "admin.eventNav.communication",
  ...SALES_PAGE_LABELS,
  "check-in": "admin.checkIn.nav",
  "waiting-room": "admin.waitingRoom.nav",
  "waiting-list": "admin.waitingList.nav",
};

const isSalesPage = (page: EventPage): page is SalesPage => (SALES_PAGES as readonly string[]).includes(page);

/**
 * The path of one of the event's pages under the event's own path (`/events/1`, react-admin's edit path, which
 * redirects to the editor): settings and communication land on their first page through their own redirect.
 */
export const eventPagePath = (eventPath: string, page: EventPage, preview: boolean): string => {
  if (isSalesPage(page)) return salesPagePath(eventPath, page, preview);
  return page === "check-in" || page === "waiting-list"
    ? withPreview(`${eventPath}/${page}`, preview)
    : `${eventPath}/${page}`;
};

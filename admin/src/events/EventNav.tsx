// The navigation every page of an event shows (docs/specification.md §2.2): the editor, the settings, the communication
// and the sales pages, each reachable from the others, and the event's ticket office.
import EditIcon from "@mui/icons-material/Edit";
import FormatListNumberedIcon from "@mui/icons-material/FormatListNumbered";
import HourglassTopIcon from "@mui/icons-material/HourglassTop";
import InsightsIcon from "@mui/icons-material/Insights";
import InventoryIcon from "@mui/icons-material/Inventory";
import MailOutlineIcon from "@mui/icons-material/MailOutline";
import QrCodeScannerIcon from "@mui/icons-material/QrCodeScanner";
import ReceiptLongIcon from "@mui/icons-material/ReceiptLong";
import SettingsIcon from "@mui/icons-material/Settings";
import ShoppingBasketIcon from "@mui/icons-material/ShoppingBasket";
import { Badge, Box } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import { type ReactElement, useId } from "react";
import {
  Button,
  LinkBase,
  RecordContextProvider,
  useCreatePath,
  useGetOne,
  useParams,
  useTranslate,
} from "react-admin";
import type { TrackedView } from "../layout/preferences.ts";
import { useVisitedViews } from "../layout/useVisitedView.ts";
import { EVENT_PAGE_LABELS, EVENT_PAGES, type EventPage, eventPagePath } from "./eventPages.ts";
import { TicketOfficeLink } from "./TicketOfficeLink.tsx";

const EVENT_PAGE_ICONS: Record<EventPage, ReactElement> = {
  edit: <EditIcon />,
  settings: <SettingsIcon />,
  communication: <MailOutlineIcon />,
  baskets: <ShoppingBasketIcon />,
  dashboard: <InsightsIcon />,
  "stocks-table": <InventoryIcon />,
  invoices: <ReceiptLongIcon />,
  "check-in": <QrCodeScannerIcon />,
  "waiting-room": <HourglassTopIcon />,
  "waiting-list": <FormatListNumberedIcon />,
};

/** docs/specification.md §2.2: the pages whose tab is marked until the user first opens them. */
const TRACKED_PAGES: Partial<Record<EventPage, TrackedView>> = {
  edit: "Edit",
  settings: "Settings",
  communication: "Communications",
  baskets: "Baskets",
  dashboard: "Dashboard",
};

/**
 * The event of the address's `:id`: links to its pages, `current` marked as the page shown (`aria-current`), the
 * sales pages carrying `preview=true` when `preview`; then its ticket office (the preview always, for staff; the
 * public one only once the event is public). The event comes from react-admin's cache, shared with the page's own
 * load of it.
 */
export const EventNav = ({ current, preview = false }: { current: EventPage; preview?: boolean }) => {
  const { id } = useParams<{ id: string }>();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const { data: event } = useGetOne<Event>("events", { id: Number(id) }, { enabled: id !== undefined, retry: false });
  const visited = useVisitedViews();
  const notOpenedId = useId();
  if (id === undefined) return null;
  const isNotOpened = (page: EventPage) => {
    const view = TRACKED_PAGES[page];
    return view !== undefined && !visited.includes(view);
  };
  const eventPath = createPath({ resource: "events", id, type: "edit" });
  return (
    <Box
      component="nav"
      aria-label={translate("admin.eventNav.label")}
      sx={{
        display: "flex",
        flexWrap: "wrap",
        alignItems: "center",
        gap: 0.5,
        py: 1,
        borderBottom: 1,
        borderColor: "divider",
      }}
    >
      {EVENT_PAGES.map((page) => (
        <Button
          key={page}
          component={LinkBase}
          to={eventPagePath(eventPath, page, preview)}
          label={EVENT_PAGE_LABELS[page]}
          variant={page === current ? "contained" : "text"}
          aria-current={page === current ? "page" : undefined}
          aria-describedby={isNotOpened(page) ? notOpenedId : undefined}
        >
          {/* The dot shows on the icon, which is all a phone shows of the tab (react-admin's Button). The icon keeps
              its size: on a wide screen the button sizes its first child, here the badge; on a phone an icon's own. */}
          <Badge
            variant="dot"
            color="warning"
            overlap="circular"
            invisible={!isNotOpened(page)}
            sx={{ fontSize: "1.5rem", "& > svg": { fontSize: "inherit" } }}
          >
            {EVENT_PAGE_ICONS[page]}
          </Badge>
        </Button>
      ))}
      {/* The dot's words, for the tabs it marks (referenced, so read even though hidden). */}
      <span id={notOpenedId} hidden>
        {translate("admin.visitedViews.notOpened")}
      </span>
      {event && (
        <Box sx={{ ml: "auto", display: "flex", gap: 0.5 }}>
          <RecordContextProvider value={event}>
            <TicketOfficeLink preview />
            <TicketOfficeLink />
          </RecordContextProvider>
        </Box>
      )}
    </Box>
  );
};

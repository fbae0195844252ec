// What the event's sales pages (baskets, invoices, dashboard, stocks table) share: the event they show, a toolbar
// back to it and on to the other pages, and the testing (preview) switch.
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import InsightsIcon from "@mui/icons-material/Insights";
import InventoryIcon from "@mui/icons-material/Inventory";
import ReceiptLongIcon from "@mui/icons-material/ReceiptLong";
import ShoppingBasketIcon from "@mui/icons-material/ShoppingBasket";
import { Box, FormControlLabel, Switch } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import type { ReactElement, ReactNode } from "react";
import {
  Button,
  LinkBase,
  TopToolbar,
  useBasename,
  useCreatePath,
  useGetOne,
  useParams,
  useTranslate,
} from "react-admin";
import { usePreviewFlag } from "./previewFlag.ts";
import { SALES_PAGE_LABELS, SALES_PAGES, type SalesPage, salesPagePath } from "./salesPages.ts";

/**
 * The event of the page's address: its id, its name once loaded (and the error if it could not be, a 404 for
 * another unit's event), its edit page's path, and the back office's basename (a list's rowClick path is the
 * browser's, outside react-admin's basename).
 */
export function useSalesEvent() {
  const { id } = useParams<{ id?: string }>();
  const eventId = Number(id);
  const createPath = useCreatePath();
  const basename = useBasename();
  const { data: event, error } = useGetOne<Pick<Event, "id" | "name">>(
    "events",
    { id: eventId },
    { enabled: Number.isInteger(eventId) },
  );
  return {
    eventId,
    name: event?.name ?? "",
    error,
    eventPath: createPath({ resource: "events", id: eventId, type: "edit" }),
    basename,
  };
}

export const SALES_PAGE_ICONS: Record<SalesPage, ReactElement> = {
  baskets: <ShoppingBasketIcon />,
  dashboard: <InsightsIcon />,
  "stocks-table": <InventoryIcon />,
  invoices: <ReceiptLongIcon />,
};

/**
 * Back to the event, and on to its other sales pages: `other` (a `path` under the event's page), and with `current`
 * every sales page but this one, carrying `preview=true` (`preview`) to those that read it. `children`: the page's
 * own actions, after the links.
 */
export const SalesToolbar = ({
  eventPath,
  other,
  current,
  preview = false,
  children,
}: {
  eventPath: string;
  other?: { path: string; label: string; icon: ReactElement };
  current?: SalesPage;
  preview?: boolean;
  children?: ReactNode;
}) => {
  const translate = useTranslate();
  const pages = current ? SALES_PAGES.filter((page) => page !== current && page !== other?.path) : [];
  return (
    <TopToolbar>
      <Button component={LinkBase} label="admin.baskets.backToEvent" to={eventPath}>
        <ArrowBackIcon />
      </Button>
      {other && (
        <Button component={LinkBase} label={other.label} to={`${eventPath}/${other.path}`}>
          {other.icon}
        </Button>
      )}
      {pages.length > 0 && (
        <Box component="nav" aria-label={translate("admin.salesPages.navigation")} sx={{ display: "contents" }}>
          {pages.map((page) => (
            <Button
              key={page}
              component={LinkBase}
              label={SALES_PAGE_LABELS[page]}
              to={salesPagePath(eventPath, page, preview)}
            >
              {SALES_PAGE_ICONS[page]}
            </Button>
          ))}
        </Box>
      )}
      {children}
    </TopToolbar>
  );
};

/** SPEC.md 2.2: the switch of the address's `preview=true` (testing sales only, instead of real ones). */
export const PreviewSwitch = () => {
  const [preview, setPreview] = usePreviewFlag();
  const translate = useTranslate();
  return (
    <FormControlLabel
      control={<Switch checked={preview} onChange={(event) => setPreview(event.target.checked)} />}
      label={translate("admin.salesPages.preview")}
    />
  );
};

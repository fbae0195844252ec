// What the event's sales pages (baskets, invoices, dashboard, stocks table) share: the event they show, the event's
// navigation above their own actions, and the testing (preview) switch.
import { FormControlLabel, Switch } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import type { ReactNode } from "react";
import { TopToolbar, useBasename, useGetOne, useParams, useTranslate } from "react-admin";
import { EventNav } from "../EventNav.tsx";
import { usePreviewFlag } from "./previewFlag.ts";
import type { SalesPage } from "./salesPages.ts";

/**
 * The event of the page's address: its id, its name once loaded (and the error if it could not be, a 404 for
 * another unit's event), and the back office's basename (a list's rowClick path is the
 * browser's, outside react-admin's basename).
 */
export function useSalesEvent() {
  const { id } = useParams<{ id?: string }>();
  const eventId = Number(id);
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
    basename,
  };
}

/**
 * The event's navigation (its other pages, the sales pages carrying `preview=true` when `preview`), then the page's
 * own actions (`children`).
 */
export const SalesToolbar = ({
  current,
  preview = false,
  children,
}: {
  current: SalesPage;
  preview?: boolean;
  children?: ReactNode;
}) => (
  <>
    <EventNav current={current} preview={preview} />
    {children && <TopToolbar>{children}</TopToolbar>}
  </>
);

/**
 * docs/specification.md §2.2: the switch of the address's `preview=true` (testing sales only, instead of real ones).
 */
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

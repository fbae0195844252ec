// The back office's export (docs/design.md §3, docs/specification.md §9): the API writes the file, csv or xlsx, with
// the same filter, sort and permissions as the list on the screen; react-admin's own exporter (raw fields, cents, no
// formula neutralising) is off on every list (`exporter={false}`).
import DownloadIcon from "@mui/icons-material/Download";
import { CircularProgress, Menu, MenuItem } from "@mui/material";
import { EXPORT_FORMATS, type ExportFormat, type ExportList } from "@ticketing/shared/constants";
import { useContext, useId, useState } from "react";
import { Button, ListContext, useDataProvider, useNotify, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../dataProvider.ts";
import { saveFile } from "../events/sales/invoiceStatus.ts";
import { exportQuery } from "./exportQuery.ts";

export interface ExportButtonProps {
  list: ExportList;
  /** The filter the page always applies (a List's `filter` prop, or the whole filter outside a list). */
  filter?: Record<string, unknown>;
  /** An i18n key or a text; "Export" by default. */
  label?: string;
  /**
   * Whether the rows are those of the react-admin list around the button (its filters and sort; the default), or
   * those `filter` alone says (another list's export on a list page: the units list's members of every unit).
   */
  ofList?: boolean;
}

/**
 * "Export" and a menu of the two formats. Inside a react-admin list it exports that list's current view (its
 * filters merged with `filter`, and its sort when `list` is the list itself: exportQuery); elsewhere `filter`
 * alone says which rows.
 */
export const ExportButton = ({ list, filter, label = "admin.export.button", ofList = true }: ExportButtonProps) => {
  const around = useContext(ListContext);
  const listContext = ofList ? around : null;
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [busy, setBusy] = useState(false);

  const download = async (format: ExportFormat) => {
    setAnchor(null);
    setBusy(true);
    try {
      const { data } = await dataProvider.downloadExport(list, format, exportQuery(list, listContext, filter));
      saveFile(data.blob, data.fileName);
    } catch {
      // The API's reason is written for its callers (field names, filters), not for the organiser clicking here.
      notify("admin.export.failed", { type: "error" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        label={label}
        disabled={busy || listContext?.total === 0}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? "true" : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {busy ? <CircularProgress size={16} /> : <DownloadIcon />}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {EXPORT_FORMATS.map((format) => (
          <MenuItem key={format} onClick={() => download(format)}>
            {translate(`admin.export.${format}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};

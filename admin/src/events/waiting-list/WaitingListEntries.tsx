// The list's entries, in order of joining, a page at a time: filtered by state, each waiting one offered by hand,
// each one in line or holding an offer removed once confirmed; the list as csv or xlsx with the same filter.
import PersonRemoveIcon from "@mui/icons-material/PersonRemove";
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  type ChipProps,
  CircularProgress,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { visuallyHidden } from "@mui/utils";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { WaitingListEntry } from "@ticketing/shared/schemas/waiting-list";
import { useId, useState } from "react";
import { useDataProvider, useLocaleState, useNotify, useTranslate } from "react-admin";
import { submissionErrorsOf } from "../../apiErrors.ts";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { TO_THE_MINUTE } from "../../fields/dateTime.ts";
import { ExportButton } from "../../fields/ExportButton.tsx";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { useConfirm } from "../../widgets/PromptDialog.tsx";
import { Tooltip } from "../../widgets/Tooltip.tsx";
import { canOffer, canRemove, ENTRIES_PER_PAGE, FILTER_STATES, LIST_REFRESH_MS } from "./waitingList.ts";

/**
 * The state's chip: colours whose text keeps a 4.5:1 contrast (MUI's info and warning, the theme's secondary do
 * not); an entry holding an offer outlined, one in line filled, a closed one grey.
 */
const STATE_CHIPS: Partial<Record<WaitingListEntry["state"], ChipProps>> = {
  waiting: { color: "primary" },
  offering: { color: "primary", variant: "outlined" },
  offered: { color: "primary", variant: "outlined" },
  bought: { color: "success" },
};

const COLUMNS = [
  "position",
  "email",
  "article",
  "quantity",
  "state",
  "offeredQuantity",
  "offerEnds",
  "joined",
  "actions",
] as const;
const NUMBER_COLUMNS: ReadonlySet<string> = new Set(["position", "quantity", "offeredQuantity"]);

/**
 * Narrow enough for a laptop's screen: emails break where they must, moments between the day and the time, and the
 * figures, the state and the buttons stay on one line.
 */
const CELL_STYLES: Partial<Record<(typeof COLUMNS)[number], object>> = {
  email: { overflowWrap: "break-word" },
  offerEnds: { minWidth: 90 },
  joined: { minWidth: 90 },
  state: { whiteSpace: "nowrap" },
  actions: { whiteSpace: "nowrap" },
};

/** The key of every entries query of an event's list (all pages, all filters), to ask them again at once. */
export const entriesKey = (eventId: number, testing: boolean) => ["events", "waitingListEntries", eventId, testing];

/** `onChanged` after an offer or a removal: the counts are asked again. */
export const WaitingListEntries = ({
  eventId,
  testing,
  readOnly,
  onChanged,
}: {
  eventId: number;
  testing: boolean;
  readOnly: boolean;
  onChanged: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const headingId = useId();
  const [state, setState] = useState("");
  const [page, setPage] = useState(0);
  const [busy, setBusy] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { data, error, isPending } = useQuery({
    queryKey: [...entriesKey(eventId, testing), state, page],
    queryFn: () =>
      dataProvider.getWaitingListEntries(eventId, {
        testing,
        state: state || undefined,
        page: page + 1,
        perPage: ENTRIES_PER_PAGE,
      }),
    refetchInterval: LIST_REFRESH_MS,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const number = new Intl.NumberFormat(intlLocaleOf(locale));
  const moment = new Intl.DateTimeFormat(intlLocaleOf(locale), TO_THE_MINUTE);
  const figure = (value: number | null) => (value === null ? "" : number.format(value));
  const when = (value: string | null) => (value === null ? "" : moment.format(new Date(value)));

  const act = async (entry: WaitingListEntry, action: "offer" | "remove") => {
    if (busy !== null) return;
    if (
      action === "remove" &&
      !(await confirm({
        title: "admin.waitingList.removeConfirm.title",
        message: "admin.waitingList.removeConfirm.message",
        messageArgs: { email: entry.email },
        confirmLabel: "admin.waitingList.actions.remove",
        isDangerous: true,
      }))
    )
      return;
    setBusy(entry.id);
    setFailure(null);
    try {
      if (action === "offer") await dataProvider.offerWaitingListEntry(eventId, entry.id);
      else await dataProvider.removeWaitingListEntry(eventId, entry.id);
      notify(action === "offer" ? "admin.waitingList.done.offered" : "admin.waitingList.done.removed", {
        type: "success",
        messageArgs: { email: entry.email },
      });
    } catch (failed) {
      // Said beside the table (the API's reason: no free stock, an entry no longer waiting), and until the next act.
      setFailure(
        translate(`admin.waitingList.failed.${action}`, {
          email: entry.email,
          message: translate(submissionErrorsOf(failed).message),
        }),
      );
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey: entriesKey(eventId, testing) });
      onChanged();
    }
  };

  const cell = (entry: WaitingListEntry, column: (typeof COLUMNS)[number]) => {
    switch (column) {
      case "position":
        return figure(entry.position);
      case "email":
        return entry.email;
      case "article":
        return entry.title;
      case "quantity":
        return figure(entry.quantity);
      case "state":
        return (
          <Chip
            size="small"
            {...STATE_CHIPS[entry.state]}
            label={translate(`admin.waitingList.states.${entry.state}`)}
          />
        );
      case "offeredQuantity":
        return figure(entry.offeredQuantity);
      case "offerEnds":
        return when(entry.offerExpiresAt);
      case "joined":
        return when(entry.createdAt);
      case "actions":
        return (
          <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end", alignItems: "center" }}>
            {canOffer(entry) && (
              <Button
                size="small"
                variant="contained"
                disabled={busy !== null}
                loading={busy === entry.id}
                aria-label={translate("admin.waitingList.actions.offerTo", { email: entry.email })}
                onClick={() => act(entry, "offer")}
              >
                {translate("admin.waitingList.actions.offer")}
              </Button>
            )}
            {canRemove(entry) && (
              // An icon (the table stays narrow), named for screen readers and shown on hover and focus.
              // Never disabled (a tooltip's child must take the pointer): a click while another act runs does nothing.
              <Tooltip title={translate("admin.waitingList.actions.remove")}>
                <IconButton
                  size="small"
                  color="error"
                  aria-label={translate("admin.waitingList.actions.removeEmail", { email: entry.email })}
                  onClick={() => act(entry, "remove")}
                >
                  <PersonRemoveIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Stack>
        );
    }
  };

  const columns = readOnly ? COLUMNS.filter((column) => column !== "actions") : COLUMNS;
  const exportFilter = { eventId, ...(testing ? { testing: true } : {}), ...(state ? { state } : {}) };
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1, mb: 2 }}>
          <Typography id={headingId} variant="h6" component="h2">
            {translate("admin.waitingList.entries.heading")}
          </Typography>
          <TextField
            select
            size="small"
            fullWidth={false}
            label={translate("admin.waitingList.entries.state")}
            value={state}
            onChange={(event) => {
              setState(event.target.value);
              setPage(0);
            }}
            sx={{ width: 220 }}
          >
            <MenuItem value="">{translate("admin.waitingList.entries.allStates")}</MenuItem>
            {FILTER_STATES.map((key) => (
              <MenuItem key={key} value={key}>
                {translate(`admin.waitingList.states.${key}`)}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ ml: "auto" }}>
            <ExportButton list="waiting-list" filter={exportFilter} ofList={false} />
          </Box>
        </Stack>
        {failure && (
          <Alert severity="error" onClose={() => setFailure(null)} sx={{ mb: 2 }}>
            {failure}
          </Alert>
        )}
        {isPending ? (
          <CircularProgress size={24} aria-label={translate("ra.page.loading")} />
        ) : error || !data ? (
          <Alert severity="error">{translate("admin.waitingList.entries.loadFailed")}</Alert>
        ) : data.data.length === 0 ? (
          <Typography color="text.secondary">
            {translate(state ? "admin.waitingList.entries.emptyState" : "admin.waitingList.entries.empty")}
          </Typography>
        ) : (
          <>
            {/* Positioned: the buttons' hidden column name scrolls with the table, not past the page's edge. */}
            <TableContainer sx={{ position: "relative" }}>
              <Table size="small" aria-labelledby={headingId}>
                <TableHead>
                  <TableRow>
                    {columns.map((column) => (
                      <TableCell key={column} align={NUMBER_COLUMNS.has(column) ? "right" : "left"}>
                        {column === "actions" ? (
                          <Box component="span" sx={visuallyHidden}>
                            {translate("admin.waitingList.entries.columns.actions")}
                          </Box>
                        ) : (
                          translate(`admin.waitingList.entries.columns.${column}`)
                        )}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.data.map((entry) => (
                    <TableRow key={entry.id} hover>
                      {columns.map((column) => (
                        <TableCell
                          key={column}
                          component={column === "email" ? "th" : "td"}
                          scope={column === "email" ? "row" : undefined}
                          align={NUMBER_COLUMNS.has(column) ? "right" : "left"}
                          sx={CELL_STYLES[column]}
                        >
                          {cell(entry, column)}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            {data.total > ENTRIES_PER_PAGE && (
              <TablePagination
                component="div"
                count={data.total}
                page={page}
                onPageChange={(_, next) => setPage(next)}
                rowsPerPage={ENTRIES_PER_PAGE}
                rowsPerPageOptions={[]}
                labelDisplayedRows={({ from, to, count }) =>
                  translate("ra.navigation.page_range_info", { offsetBegin: from, offsetEnd: to, total: count })
                }
                getItemAriaLabel={(type) => translate(`ra.navigation.${type === "next" ? "next" : "previous"}`)}
              />
            )}
          </>
        )}
      </CardContent>
      {dialog}
    </Card>
  );
};

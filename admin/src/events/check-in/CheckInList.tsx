// `/events/:id/check-ins`: who is in (issue 17). One row per ticket sold (`GET /events/:id/check-ins`), checked in or
// not, with the door's figures above and the exports of the other lists.
import QrCodeScannerIcon from "@mui/icons-material/QrCodeScanner";
import { Box, type Theme, useMediaQuery } from "@mui/material";
import type { CheckInRow } from "@ticketing/shared/schemas/check-ins";
import {
  Button,
  DataTable,
  LinkBase,
  List,
  NullableBooleanInput,
  SearchInput,
  SimpleList,
  TopToolbar,
  useLocaleState,
  useTranslate,
} from "react-admin";
import { DateTimeField } from "../../fields/DateTimeField.tsx";
import { TO_THE_MINUTE } from "../../fields/dateTime.ts";
import { ExportButton } from "../../fields/ExportButton.tsx";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { EventNav } from "../EventNav.tsx";
import { usePreviewFlag, withPreview } from "../sales/previewFlag.ts";
import { PreviewSwitch, useSalesEvent } from "../sales/salesEvent.tsx";
import { CheckInDoubles } from "./CheckInDoubles.tsx";
import { useCheckInCounts } from "./CheckInPage.tsx";
import { CheckInCountsLine } from "./CheckInPanel.tsx";
import { checkedInLine } from "./checkInResult.ts";

const checkInFilters = (translate: (key: string) => string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate("admin.checkIn.filters.search")} />,
  <NullableBooleanInput
    key="checkedIn"
    source="checkedIn"
    label="admin.checkIn.filters.checkedIn"
    trueLabel="admin.checkIn.filters.yes"
    falseLabel="admin.checkIn.filters.no"
    alwaysOn
  />,
];

/** On a phone, a row is a list item: the holder, then the ticket and its order, then when and by whom it came in. */
const PhoneRows = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const moment = new Intl.DateTimeFormat(intlLocaleOf(locale), TO_THE_MINUTE);
  return (
    <SimpleList<CheckInRow>
      rowClick={false}
      primaryText={(row) => row.holderName}
      secondaryText={(row) => {
        const line = row.checkedInAt && checkedInLine(moment.format(new Date(row.checkedInAt)), row.checkedInByEmail);
        return (
          <>
            {`${row.title} · ${row.reference}`}
            <br />
            {line ? translate(line.key, line.options) : translate("admin.checkIn.filters.no")}
          </>
        );
      }}
    />
  );
};

export const CheckInList = () => {
  const translate = useTranslate();
  const { eventId, name, basename } = useSalesEvent();
  const [preview] = usePreviewFlag();
  const { data: counts } = useCheckInCounts(eventId, preview);
  // The list and its exports: the event's tickets of the mode shown (the preview's test tickets with preview=true).
  const filter = preview ? { eventId, preview: true } : { eventId };
  const isPhone = useMediaQuery<Theme>((theme) => theme.breakpoints.down("sm"));

  return (
    <>
      <EventNav current="check-in" preview={preview} />
      <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", gap: 2, mt: 1 }}>
        <CheckInCountsLine counts={counts} />
        <PreviewSwitch />
        <Button
          component={LinkBase}
          to={withPreview(`${basename}/events/${eventId}/check-in`, preview)}
          label="admin.checkIn.scanTickets"
          variant="contained"
          sx={{ ml: "auto" }}
        >
          <QrCodeScannerIcon />
        </Button>
      </Box>
      <Box sx={{ mt: 1 }}>
        <CheckInDoubles eventId={eventId} preview={preview} />
      </Box>
      <List
        resource="check-ins"
        filter={filter}
        filters={checkInFilters(translate)}
        sort={{ field: "checkedInAt", order: "DESC" }}
        // As the baskets list: the address holds `preview=true` alone (react-admin would replace it with its own
        // parameters), so the list's filters live in the page.
        disableSyncWithLocation
        storeKey={false}
        exporter={false}
        title={translate("admin.checkIn.listTitle", { name })}
        actions={
          <TopToolbar>
            <ExportButton list="check-ins" filter={filter} />
          </TopToolbar>
        }
      >
        {isPhone ? (
          <PhoneRows />
        ) : (
          <DataTable<CheckInRow> bulkActionButtons={false} rowClick={false}>
            <DataTable.Col source="holderName" label="admin.checkIn.fields.holderName" disableSort />
            <DataTable.Col source="title" label="admin.checkIn.fields.title" />
            <DataTable.Col source="reference" label="admin.checkIn.fields.reference" />
            <DataTable.Col source="checkedInAt" label="admin.checkIn.fields.checkedInAt">
              <DateTimeField source="checkedInAt" />
            </DataTable.Col>
            <DataTable.Col source="checkedInByEmail" label="admin.checkIn.fields.checkedInByEmail" disableSort />
          </DataTable>
        )}
      </List>
    </>
  );
};

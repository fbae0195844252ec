import InfoOutlinedIcon from "@mui/icons-material/InfoOutlined";
import { Box, Tooltip } from "@mui/material";
import { EVENT_ACTIVITIES, MODERATION_STATUSES } from "@ticketing/shared/constants";
import {
  CreateButton,
  DataTable,
  List,
  SearchInput,
  SelectField,
  SelectInput,
  TopToolbar,
  useBasename,
  useListContext,
  useTranslate,
} from "react-admin";
import { DateTimeField } from "../fields/DateTimeField.tsx";
import { ExportButton } from "../fields/ExportButton.tsx";
import { eventStatusChoices } from "./eventStatus.ts";
import { TicketOfficeLink } from "./TicketOfficeLink.tsx";

const activityChoices = EVENT_ACTIVITIES.map((activity) => ({
  id: activity,
  name: `admin.events.filters.${activity}`,
}));

const moderationStatusChoices = MODERATION_STATUSES.map((status) => ({
  id: status,
  name: `admin.moderationStatus.${status}`,
}));

/**
 * The activity filter's label says what each choice means (EVENT_ACTIVITIES) on hover: a filter bar shows no
 * helper text under its inputs.
 */
const ActivityLabel = () => {
  const translate = useTranslate();
  return (
    <Tooltip title={translate("admin.events.filters.activityHelp")} describeChild>
      <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 0.5 }}>
        {translate("admin.events.filters.activity")}
        <InfoOutlinedIcon fontSize="inherit" />
      </Box>
    </Tooltip>
  );
};

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="status" source="status" choices={eventStatusChoices} alwaysOn />,
  <SelectInput key="activity" source="activity" label={<ActivityLabel />} choices={activityChoices} alwaysOn />,
  <SelectInput key="moderationStatus" source="moderationStatus" choices={moderationStatusChoices} alwaysOn />,
];

/**
 * Every filter is always shown, so no "add filter" button; the export is the API's (the events as filtered and
 * sorted, chosen columns in CHF, no secret), not react-admin's csv of the raw records.
 */
const EventListActions = () => (
  <TopToolbar>
    <CreateButton />
    <ExportButton list="events" />
  </TopToolbar>
);

/**
 * A row opens the event's editor; in the moderation queue (the list filtered to events waiting for moderation, where
 * the menu's Moderation entry leads) it opens the event's status settings, where the moderation panel is.
 */
const EventTable = () => {
  const { filterValues } = useListContext();
  const basename = useBasename();
  const isQueue = filterValues.moderationStatus === "requested";
  return (
    <DataTable
      rowClick={isQueue ? (id) => `${basename}/events/${id}/settings/status` : "edit"}
      bulkActionButtons={false}
    >
      <DataTable.Col source="name" />
      <DataTable.Col source="frontendPath" />
      <DataTable.Col source="status">
        <SelectField source="status" choices={eventStatusChoices} />
      </DataTable.Col>
      <DataTable.Col source="moderationStatus" disableSort>
        <SelectField source="moderationStatus" choices={moderationStatusChoices} />
      </DataTable.Col>
      <DataTable.Col source="startDate">
        <DateTimeField source="startDate" />
      </DataTable.Col>
      <DataTable.Col source="ticketOfficeUrl" disableSort>
        <TicketOfficeLink />
      </DataTable.Col>
    </DataTable>
  );
};

export const EventList = () => (
  <List filters={filters} sort={{ field: "startDate", order: "DESC" }} exporter={false} actions={<EventListActions />}>
    <EventTable />
  </List>
);

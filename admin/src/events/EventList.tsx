import { CreateButton, DataTable, List, SearchInput, SelectField, SelectInput, TopToolbar } from "react-admin";
import { DateTimeField } from "../fields/DateTimeField.tsx";
import { ExportButton } from "../fields/ExportButton.tsx";
import { eventStatusChoices } from "./eventStatus.ts";
import { TicketOfficeLink } from "./TicketOfficeLink.tsx";

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="status" source="status" choices={eventStatusChoices} alwaysOn />,
];

/**
 * Both filters are always shown, so no "add filter" button; the export is the API's (the events as filtered and
 * sorted, chosen columns in CHF, no secret), not react-admin's csv of the raw records.
 */
const EventListActions = () => (
  <TopToolbar>
    <CreateButton />
    <ExportButton list="events" />
  </TopToolbar>
);

export const EventList = () => (
  <List filters={filters} sort={{ field: "startDate", order: "DESC" }} exporter={false} actions={<EventListActions />}>
    <DataTable rowClick="edit" bulkActionButtons={false}>
      <DataTable.Col source="name" />
      <DataTable.Col source="frontendPath" />
      <DataTable.Col source="status">
        <SelectField source="status" choices={eventStatusChoices} />
      </DataTable.Col>
      <DataTable.Col source="startDate">
        <DateTimeField source="startDate" />
      </DataTable.Col>
      <DataTable.Col source="ticketOfficeUrl" disableSort>
        <TicketOfficeLink />
      </DataTable.Col>
    </DataTable>
  </List>
);

import { DataTable, List, SearchInput, SelectField, SelectInput } from "react-admin";
import { DateTimeField } from "../fields/DateTimeField.tsx";
import { eventStatusChoices } from "./eventStatus.ts";
import { TicketOfficeLink } from "./TicketOfficeLink.tsx";

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="status" source="status" choices={eventStatusChoices} alwaysOn />,
];

export const EventList = () => (
  <List filters={filters} sort={{ field: "startDate", order: "DESC" }}>
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

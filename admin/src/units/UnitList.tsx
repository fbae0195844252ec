import { DataTable, List, SelectField } from "react-admin";
import { unitRoleChoices } from "./unitRoles.ts";

export const UnitList = () => (
  <List sort={{ field: "id", order: "ASC" }}>
    <DataTable rowClick="edit" bulkActionButtons={false}>
      <DataTable.Col source="name" />
      <DataTable.Col source="currentUserRole" disableSort>
        <SelectField source="currentUserRole" choices={unitRoleChoices} emptyText="—" />
      </DataTable.Col>
    </DataTable>
  </List>
);

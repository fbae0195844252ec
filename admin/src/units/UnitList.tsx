import { CreateButton, DataTable, List, SelectField, TopToolbar } from "react-admin";
import { ExportButton } from "../fields/ExportButton.tsx";
import { unitRoleChoices } from "./unitRoles.ts";

/**
 * The units list has no export of its own (docs/design.md §3 lists none): its export is the members of every unit the
 * user sees, as each unit's page exports its own. react-admin's csv exporter is off (raw fields).
 */
const UnitListActions = () => (
  <TopToolbar>
    <CreateButton />
    <ExportButton list="memberships" label="admin.export.memberships" ofList={false} />
  </TopToolbar>
);

export const UnitList = () => (
  <List sort={{ field: "id", order: "ASC" }} exporter={false} actions={<UnitListActions />}>
    <DataTable rowClick="edit" bulkActionButtons={false}>
      <DataTable.Col source="name" />
      <DataTable.Col source="currentUserRole" disableSort>
        <SelectField source="currentUserRole" choices={unitRoleChoices} emptyText="—" />
      </DataTable.Col>
    </DataTable>
  </List>
);

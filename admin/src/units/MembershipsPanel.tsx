import PersonRemoveIcon from "@mui/icons-material/PersonRemove";
import {
  Alert,
  Box,
  CircularProgress,
  IconButton,
  MenuItem,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from "@mui/material";
import type { UnitRole } from "@ticketing/shared/constants";
import type { Membership } from "@ticketing/shared/schemas/memberships";
import type { Unit } from "@ticketing/shared/schemas/units";
import { useId, useState } from "react";
import {
  email,
  Form,
  type Identifier,
  RecordContextProvider,
  required,
  SelectInput,
  TextInput,
  useDataProvider,
  useDelete,
  useGetIdentity,
  useGetList,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUpdate,
} from "react-admin";
import { SubmitButton } from "../auth/SubmitButton.tsx";
import { useApiForm } from "../auth/useApiForm.ts";
import { ExportButton } from "../fields/ExportButton.tsx";
import { PromptDialog } from "../widgets/PromptDialog.tsx";
import { useUnitPermissions } from "./UnitEdit.tsx";
import { unitRoleChoices } from "./unitRoles.ts";

const fullName = ({ user }: Membership) => [user.firstName, user.lastName].filter(Boolean).join(" ");

const errorMessageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : "admin.errors.unexpected";

const RoleSelect = ({ membership, label }: { membership: Membership; label: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate<Membership>();
  const change = (role: UnitRole) =>
    update(
      "memberships",
      { id: membership.id, data: { role }, previousData: membership },
      {
        mutationMode: "pessimistic",
        onSuccess: () => {
          notify("admin.memberships.roleChanged", { type: "success" });
          refresh(); // the user's own role, hence what the page offers, may have changed
        },
        // e.g. 409 "A unit must keep at least one owner"
        onError: (error) => notify(errorMessageOf(error), { type: "error" }),
      },
    );
  return (
    <Select
      size="small"
      value={membership.role}
      disabled={isPending}
      inputProps={{ "aria-label": label }}
      onChange={(event) => change(event.target.value as UnitRole)}
    >
      {unitRoleChoices.map((choice) => (
        <MenuItem key={choice.id} value={choice.id}>
          {translate(choice.name)}
        </MenuItem>
      ))}
    </Select>
  );
};

const RemoveButton = ({ membership }: { membership: Membership }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [isOpen, setOpen] = useState(false);
  const refresh = useRefresh();
  const [remove, { isPending }] = useDelete<Membership>();
  const who = fullName(membership) || membership.user.email;
  const confirm = () =>
    remove(
      "memberships",
      { id: membership.id, previousData: membership },
      {
        mutationMode: "pessimistic",
        onSuccess: () => {
          setOpen(false);
          notify("admin.memberships.removed", { type: "success" });
          refresh();
        },
        onError: (error) => {
          setOpen(false);
          notify(errorMessageOf(error), { type: "error" });
        },
      },
    );
  const label = translate("admin.memberships.remove", { name: who });
  return (
    <>
      <Tooltip title={label}>
        <IconButton aria-label={label} onClick={() => setOpen(true)} disabled={isPending}>
          <PersonRemoveIcon />
        </IconButton>
      </Tooltip>
      {isOpen && (
        <PromptDialog
          isOpen
          isPending={isPending}
          title="admin.memberships.removeTitle"
          message="admin.memberships.removeConfirm"
          messageArgs={{ name: who }}
          confirmLabel="ra.action.delete"
          isDangerous
          onAnswer={(answer) => (answer ? confirm() : setOpen(false))}
        />
      )}
    </>
  );
};

const NEW_MEMBER = { email: "", role: "member" };

const AddMemberForm = ({ unitId, onAdded }: { unitId: Identifier; onAdded: () => void }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const [formKey, setFormKey] = useState(0);
  const { isSubmitting, onSubmit } = useApiForm(async (values: { email: string; role: UnitRole }) => {
    await dataProvider.create("memberships", { data: { unitId, email: values.email, role: values.role } });
    notify("admin.memberships.added", { type: "success" });
    setFormKey((key) => key + 1); // empties the form
    onAdded();
  });
  return (
    // Its own record: inputs otherwise default to the page's unit (its email, for one).
    <RecordContextProvider value={NEW_MEMBER}>
      <Form key={formKey} record={NEW_MEMBER} onSubmit={onSubmit}>
        <Box sx={{ display: "flex", gap: 2, alignItems: "flex-start", flexWrap: "wrap", mt: 2 }}>
          <TextInput
            source="email"
            type="email"
            label={translate("admin.memberships.email")}
            validate={[required(), email()]}
          />
          <SelectInput
            source="role"
            label={translate("admin.memberships.role")}
            choices={unitRoleChoices}
            validate={required()}
          />
          <Box sx={{ mt: 1 }}>
            <SubmitButton label="admin.memberships.add" isSubmitting={isSubmitting} />
          </Box>
        </Box>
      </Form>
    </RecordContextProvider>
  );
};

/** The members of the unit (name, email, role); owners add, re-role and remove them. */
export const MembershipsPanel = () => {
  const unit = useRecordContext<Unit>();
  const translate = useTranslate();
  const headingId = useId();
  const { isOwner, isSuperuser } = useUnitPermissions();
  const { identity } = useGetIdentity();
  const { data, isPending, error, refetch } = useGetList<Membership>(
    "memberships",
    { filter: { unitId: unit?.id }, sort: { field: "id", order: "ASC" }, pagination: { page: 1, perPage: 500 } },
    { enabled: unit !== undefined },
  );
  if (!unit) return null;
  const canManage = isOwner || isSuperuser;

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 2 }}>
        <Typography variant="h6" component="h2" id={headingId} gutterBottom>
          {translate("admin.memberships.title")}
        </Typography>
        {/* The API's file of the unit's members (GET /exports/memberships): csv or xlsx. */}
        <ExportButton list="memberships" filter={{ unitId: unit.id }} ofList={false} />
      </Box>
      {isPending && <CircularProgress size={24} />}
      {error && <Alert severity="error">{translate("admin.memberships.loadFailed")}</Alert>}
      {data && (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.memberships.name")}</TableCell>
              <TableCell>{translate("admin.memberships.email")}</TableCell>
              <TableCell>{translate("admin.memberships.role")}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((membership) => (
              <TableRow key={membership.id}>
                <TableCell>{fullName(membership)}</TableCell>
                <TableCell>{membership.user.email}</TableCell>
                <TableCell>
                  {canManage ? (
                    <RoleSelect
                      membership={membership}
                      label={translate("admin.memberships.roleOf", { email: membership.user.email })}
                    />
                  ) : (
                    translate(`admin.unitRole.${membership.role}`)
                  )}
                </TableCell>
                <TableCell align="right">
                  {/* a member may leave the unit: delete their own membership */}
                  {(canManage || membership.userId === identity?.id) && <RemoveButton membership={membership} />}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {canManage && <AddMemberForm unitId={unit.id} onAdded={() => refetch()} />}
    </Box>
  );
};

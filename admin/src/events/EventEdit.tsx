import ShoppingCartIcon from "@mui/icons-material/ShoppingCart";
import { Alert } from "@mui/material";
import {
  Button,
  Edit,
  LinkBase,
  ListButton,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  TopToolbar,
  useCreatePath,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { ArticlesPanel } from "./articles/ArticlesPanel.tsx";
import { EventFormInputs } from "./EventFormInputs.tsx";
import { eventStatusChoices } from "./eventStatus.ts";
import { TicketOfficeLink } from "./TicketOfficeLink.tsx";

const BasketsButton = () => {
  const record = useRecordContext();
  const createPath = useCreatePath();
  if (!record) return null;
  return (
    <Button
      component={LinkBase}
      label="admin.events.baskets"
      to={`${createPath({ resource: "events", id: record.id, type: "edit" })}/baskets`}
    >
      <ShoppingCartIcon />
    </Button>
  );
};

const EventEditActions = () => (
  <TopToolbar>
    <BasketsButton />
    <TicketOfficeLink preview />
    <TicketOfficeLink />
    <ListButton />
  </TopToolbar>
);

/** SPEC 2.2: a non-draft event is locked for editing (the API refuses changes but for superusers). */
const EditingLockedAlert = () => {
  const record = useRecordContext<{ status?: string }>();
  const translate = useTranslate();
  if (!record || record.status === "draft") return null;
  return (
    <Alert severity="info" sx={{ m: 2, mb: 0 }}>
      {translate("admin.events.editingLocked")}
    </Alert>
  );
};

export const EventEdit = () => (
  // Pessimistic: the API's field errors must come back into the form (undoable would have left the page).
  // No redirect after saving: the articles below belong to the same page.
  <Edit mutationMode="pessimistic" redirect={false} actions={<EventEditActions />}>
    <EditingLockedAlert />
    <SimpleForm>
      <EventFormInputs />
      <SelectInput source="status" choices={eventStatusChoices} validate={required()} />
      <TextInput source="welcomeText" multiline minRows={3} fullWidth />
      <TextInput source="locationText" />
    </SimpleForm>
    <ArticlesPanel />
  </Edit>
);

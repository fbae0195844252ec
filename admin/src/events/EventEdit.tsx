import ShoppingCartIcon from "@mui/icons-material/ShoppingCart";
import { Alert, Link } from "@mui/material";
import type { EventStatus } from "@ticketing/shared/constants";
import { useEffect, useRef } from "react";
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
  useGetIdentity,
  useNotify,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { HttpErrorPage } from "../layout/ErrorPages.tsx";
import { useVisitedView } from "../layout/useVisitedView.ts";
import { useSupportEmail } from "../supportEmail.ts";
import { ArticlesPanel } from "./articles/ArticlesPanel.tsx";
import { EventFormInputs } from "./EventFormInputs.tsx";
import { eventStatusChoices } from "./eventStatus.ts";
import { type ModeratedEvent, ModerationPanel } from "./moderation/ModerationPanel.tsx";
import { allowedStatuses } from "./moderation/statusTransitions.ts";
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

/** SPEC 4: a non-draft event is locked for editing, but for superusers (the API answers 409 too). */
function useIsLocked(): boolean {
  const record = useRecordContext<ModeratedEvent>();
  const { identity } = useGetIdentity();
  return record !== undefined && record.status !== "draft" && identity?.isSuperuser !== true;
}

/** SPEC 2.2: the locked event's toast, once per event, and an alert with a link to support. */
const EditingLockedNotice = () => {
  const record = useRecordContext<ModeratedEvent>();
  const isLocked = useIsLocked();
  const support = useSupportEmail();
  const notify = useNotify();
  const translate = useTranslate();
  const notifiedFor = useRef<unknown>(null);
  useEffect(() => {
    if (!isLocked || support === null || notifiedFor.current === record?.id) return;
    notifiedFor.current = record?.id;
    notify("admin.events.editingLockedToast", { type: "info", messageArgs: { support } });
  }, [isLocked, support, notify, record?.id]);
  if (!isLocked) return null;
  return (
    <Alert severity="info" sx={{ m: 2, mb: 0 }}>
      {translate("admin.events.editingLocked")}{" "}
      {support && <Link href={`mailto:${support}`}>{translate("admin.events.contactSupport")}</Link>}
    </Alert>
  );
};

/** SPEC 4: the status select offers only the allowed transitions (the API answers 409 otherwise). */
const StatusInput = () => {
  const record = useRecordContext<ModeratedEvent>();
  const allowed = record ? allowedStatuses(record.status as EventStatus, record.moderationStatus) : [];
  const choices = eventStatusChoices.filter((choice) => allowed.includes(choice.id));
  return <SelectInput source="status" choices={choices} validate={required()} />;
};

const EventEditForm = () => {
  const isLocked = useIsLocked();
  return (
    <>
      <EditingLockedNotice />
      <ModerationPanel />
      {/* Locked: only the status may change (the update sends the changed fields only). */}
      <SimpleForm>
        <EventFormInputs readOnly={isLocked} />
        <StatusInput />
        <TextInput source="welcomeText" multiline minRows={3} fullWidth readOnly={isLocked} />
        <TextInput source="locationText" readOnly={isLocked} />
      </SimpleForm>
      <ArticlesPanel readOnly={isLocked} />
    </>
  );
};

export const EventEdit = () => {
  useVisitedView("Edit");
  return (
    // Pessimistic: the API's field errors must come back into the form (undoable would have left the page).
    // No redirect after saving: the articles below belong to the same page. A load refused with 403/404
    // shows its error page (SPEC 2.2) rather than going back to the list.
    <Edit
      mutationMode="pessimistic"
      redirect={false}
      actions={<EventEditActions />}
      queryOptions={{ onError: () => undefined }}
      error={<HttpErrorPage />}
    >
      <EventEditForm />
    </Edit>
  );
};

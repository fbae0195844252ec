import { Alert, Box, CircularProgress, Link } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import { lazy, Suspense, useEffect, useRef } from "react";
import {
  Button,
  Edit,
  LinkBase,
  ListButton,
  required,
  SelectInput,
  SimpleForm,
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
import { ConfigurationTab } from "./editor/ConfigurationTab.tsx";
import { DisplayInputs, EditTabs, PointsOfSalePanel, PropertiesInputs, useEditTab } from "./editor/EventTabs.tsx";
import { eventStatusChoices } from "./eventStatus.ts";
import { ModerationPanel } from "./moderation/ModerationPanel.tsx";
import { allowedStatuses } from "./moderation/statusTransitions.ts";
import { SALES_PAGE_ICONS } from "./sales/salesEvent.tsx";
import { SALES_PAGE_LABELS, type SalesPage, salesPagePath } from "./sales/salesPages.ts";
import { TicketOfficeLink } from "./TicketOfficeLink.tsx";

// @xyflow/react stays out of the main bundle: the graph view loads it on demand.
const TreeGraph = lazy(() => import("./editor/TreeGraph.tsx"));

/** One of the event's sales pages (SPEC.md 2.2): its baskets, dashboard, stocks table. */
const SalesPageButton = ({ page }: { page: SalesPage }) => {
  const record = useRecordContext();
  const createPath = useCreatePath();
  if (!record) return null;
  return (
    <Button
      component={LinkBase}
      label={SALES_PAGE_LABELS[page]}
      to={salesPagePath(createPath({ resource: "events", id: record.id, type: "edit" }), page, false)}
    >
      {SALES_PAGE_ICONS[page]}
    </Button>
  );
};

const EventEditActions = () => (
  <TopToolbar>
    <SalesPageButton page="baskets" />
    <SalesPageButton page="dashboard" />
    <SalesPageButton page="stocks-table" />
    <TicketOfficeLink preview />
    <TicketOfficeLink />
    <ListButton />
  </TopToolbar>
);

/** SPEC 4: a non-draft event is locked for editing, but for superusers (the API answers 409 too). */
function useIsLocked(): boolean {
  const record = useRecordContext<Event>();
  const { identity } = useGetIdentity();
  return record !== undefined && record.status !== "draft" && identity?.isSuperuser !== true;
}

/** SPEC 2.2: the locked event's toast, once per event, and an alert with a link to support. */
const EditingLockedNotice = () => {
  const record = useRecordContext<Event>();
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
  const record = useRecordContext<Event>();
  const allowed = record ? allowedStatuses(record.status, record.moderationStatus) : [];
  const choices = eventStatusChoices.filter((choice) => allowed.includes(choice.id));
  return <SelectInput source="status" choices={choices} validate={required()} />;
};

const EventEditForm = () => {
  const isLocked = useIsLocked();
  const record = useRecordContext<Event>();
  const [tab, setTab] = useEditTab();
  const isFormTab = tab === "display" || tab === "properties";
  return (
    <>
      <EditingLockedNotice />
      <ModerationPanel />
      <EditTabs value={tab} onChange={setTab} />
      {/* Display and Properties are one form (one Save); locked: only the status may change. */}
      <Box sx={{ display: isFormTab ? "block" : "none" }}>
        <SimpleForm>
          <Box sx={{ display: tab === "display" ? "block" : "none", width: "100%" }}>
            <DisplayInputs readOnly={isLocked} />
          </Box>
          <Box sx={{ display: tab === "properties" ? "block" : "none", width: "100%" }}>
            <PropertiesInputs readOnly={isLocked} />
          </Box>
          <StatusInput />
        </SimpleForm>
      </Box>
      {tab === "display" && <ArticlesPanel readOnly={isLocked} />}
      {tab === "properties" && record && <PointsOfSalePanel eventId={record.id} readOnly={isLocked} />}
      {tab === "configuration" && record?.rootNodeId && (
        <Box sx={{ p: 2 }}>
          <ConfigurationTab eventId={record.id} rootNodeId={record.rootNodeId} readOnly={isLocked} />
        </Box>
      )}
      {tab === "graph" && record?.rootNodeId && (
        <Box sx={{ p: 2 }}>
          <Suspense fallback={<CircularProgress size={24} />}>
            <TreeGraph eventId={record.id} rootNodeId={record.rootNodeId} />
          </Suspense>
        </Box>
      )}
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

import { Box, CircularProgress } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import { Suspense } from "react";
import { Edit, ListButton, SaveButton, SimpleForm, Toolbar, TopToolbar, useRecordContext } from "react-admin";
import { DeleteRecordButton } from "../fields/ConfirmButton.tsx";
import { HttpErrorPage } from "../layout/ErrorPages.tsx";
import { useVisitedView } from "../layout/useVisitedView.ts";
import { lazyScreen } from "../lazyScreen.ts";
import { ArticlesPanel } from "./articles/ArticlesPanel.tsx";
import { EditingLockedNotice, useIsLocked } from "./EventLock.tsx";
import { EventNav } from "./EventNav.tsx";
import { ConfigurationTab } from "./editor/ConfigurationTab.tsx";
import { DisplayInputs, EditTabs, PropertiesInputs, useEditTab } from "./editor/EventTabs.tsx";
import { ModerationPanel } from "./moderation/ModerationPanel.tsx";

// @xyflow/react stays out of the main bundle: the graph view loads it on demand (reloading once if it is gone).
const TreeGraph = lazyScreen(() => import("./editor/TreeGraph.tsx"), "default");

const EventEditActions = () => (
  <TopToolbar>
    <ListButton />
  </TopToolbar>
);

// docs/specification.md §5: the Delete asks first (react-admin's default toolbar would delete at once).
const EventEditToolbar = () => (
  <Toolbar sx={{ justifyContent: "space-between" }}>
    <SaveButton />
    <DeleteRecordButton />
  </Toolbar>
);

const EventEditForm = () => {
  const isLocked = useIsLocked();
  const record = useRecordContext<Event>();
  const [tab, setTab] = useEditTab();
  const isFormTab = tab === "display" || tab === "properties";
  return (
    <>
      <EditingLockedNotice />
      {/* Also on the status page; here because the changes a moderator asks for are made in the editor. */}
      <ModerationPanel />
      <EditTabs value={tab} onChange={setTab} />
      {/* Display and Properties are one form (one Save); locked: nothing in it may change (the status is on the
          settings' status page), so there is nothing to save. */}
      <Box sx={{ display: isFormTab ? "block" : "none" }}>
        <SimpleForm toolbar={isLocked ? false : <EventEditToolbar />}>
          <Box sx={{ display: tab === "display" ? "block" : "none", width: "100%" }}>
            <DisplayInputs readOnly={isLocked} />
          </Box>
          <Box sx={{ display: tab === "properties" ? "block" : "none", width: "100%" }}>
            <PropertiesInputs readOnly={isLocked} />
          </Box>
        </SimpleForm>
      </Box>
      {tab === "display" && <ArticlesPanel readOnly={isLocked} />}
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
    <>
      <EventNav current="edit" />
      {/* Pessimistic: the API's field errors must come back into the form (undoable would have left the page).
          No redirect after saving: the articles below belong to the same page. A load refused with 403/404
          shows its error page (docs/specification.md §2.2) rather than going back to the list. */}
      <Edit
        mutationMode="pessimistic"
        redirect={false}
        actions={<EventEditActions />}
        queryOptions={{ onError: () => undefined }}
        error={<HttpErrorPage />}
      >
        <EventEditForm />
      </Edit>
    </>
  );
};

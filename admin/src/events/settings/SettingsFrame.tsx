// The frame of the event's settings pages: the event's navigation, the settings' own pages, and react-admin's Edit
// of the event around the page's form.
import { Box } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import type { ReactNode } from "react";
import {
  Button,
  Edit,
  LinkBase,
  SaveButton,
  Toolbar,
  useCreatePath,
  useParams,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { HttpErrorPage } from "../../layout/ErrorPages.tsx";
import { useVisitedView } from "../../layout/useVisitedView.ts";
import { EditingLockedNotice } from "../EventLock.tsx";
import { EventNav } from "../EventNav.tsx";
import { SETTINGS_PAGES, type SettingsPage, settingsPageLabel } from "./settingsPages.ts";

/** The settings' pages, `current` marked as the page shown. */
const SettingsNav = ({ current }: { current: SettingsPage }) => {
  const { id } = useParams<{ id: string }>();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const settingsPath = `${createPath({ resource: "events", id, type: "edit" })}/settings`;
  return (
    <Box
      component="nav"
      aria-label={translate("admin.settings.navigation")}
      sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, px: 2, pt: 1 }}
    >
      {SETTINGS_PAGES.map((page) => (
        <Button
          key={page}
          component={LinkBase}
          to={`${settingsPath}/${page}`}
          label={settingsPageLabel(page)}
          variant={page === current ? "outlined" : "text"}
          aria-current={page === current ? "page" : undefined}
        />
      ))}
    </Box>
  );
};

/** A settings page's form saves the fields it owns; deleting the event is no setting (the editor has it). */
export const SettingsToolbar = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

/** The app bar's title: the page and the event's private name. */
const SettingsTitle = ({ page }: { page: SettingsPage }) => {
  const record = useRecordContext<Event>();
  const translate = useTranslate();
  return (
    <>{translate("admin.settings.title", { page: translate(settingsPageLabel(page)), name: record?.name ?? "" })}</>
  );
};

/**
 * One settings page (SPEC.md 2.2): `children` is its form, of the fields it owns. Pessimistic: the API's field
 * errors come back into the form; no redirect after saving. A load refused with 403/404 shows its error page.
 */
export const SettingsFrame = ({ page, children }: { page: SettingsPage; children: ReactNode }) => {
  useVisitedView("Settings");
  return (
    <>
      <EventNav current="settings" />
      <Edit
        mutationMode="pessimistic"
        redirect={false}
        actions={false}
        title={<SettingsTitle page={page} />}
        queryOptions={{ onError: () => undefined }}
        error={<HttpErrorPage />}
      >
        <SettingsNav current={page} />
        <EditingLockedNotice />
        {children}
      </Edit>
    </>
  );
};

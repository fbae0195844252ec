// The frame of the event's settings pages: the event's navigation, the settings' own pages, and react-admin's Edit
// of the event around the page's form.
import type { Event } from "@ticketing/shared/schemas/events";
import type { ReactNode } from "react";
import { Edit, useRecordContext, useTranslate } from "react-admin";
import { HttpErrorPage } from "../../layout/ErrorPages.tsx";
import { useVisitedView } from "../../layout/useVisitedView.ts";
import { EditingLockedNotice } from "../EventLock.tsx";
import { EventNav } from "../EventNav.tsx";
import { EventSubPageNav } from "../EventSubPages.tsx";
import { SETTINGS_PAGES, type SettingsPage, settingsPageLabel } from "./settingsPages.ts";

/** The app bar's title: the page and the event's private name. */
const SettingsTitle = ({ page }: { page: SettingsPage }) => {
  const record = useRecordContext<Event>();
  const translate = useTranslate();
  return (
    <>{translate("admin.settings.title", { page: translate(settingsPageLabel(page)), name: record?.name ?? "" })}</>
  );
};

/**
 * One settings page (docs/specification.md §2.2): `children` is its form, of the fields it owns. Pessimistic: the API's
 * field errors come back into the form; no redirect after saving. A load refused with 403/404 shows its error page.
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
        <EventSubPageNav
          area="settings"
          pages={SETTINGS_PAGES}
          current={page}
          label="admin.settings.navigation"
          pageLabel={settingsPageLabel}
        />
        <EditingLockedNotice />
        {children}
      </Edit>
    </>
  );
};

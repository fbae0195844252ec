// The frame of the event's communication pages: the event's navigation, the communication's own pages, and
// react-admin's Edit of the event's communication settings (the `communication` resource, by the event's id)
// around the page's form.
import type { Event } from "@ticketing/shared/schemas/events";
import type { ReactNode } from "react";
import { Edit, RecordContextProvider, useGetIdentity, useGetOne, useParams, useTranslate } from "react-admin";
import { HttpErrorPage } from "../../layout/ErrorPages.tsx";
import { useVisitedView } from "../../layout/useVisitedView.ts";
import { areTextsLockedFor, EditingLockedNotice, isLockedFor } from "../EventLock.tsx";
import { EventNav } from "../EventNav.tsx";
import { EventSubPageNav } from "../EventSubPages.tsx";
import {
  COMMUNICATION_PAGES,
  type CommunicationPage,
  communicationPageLabel,
  previewOfPage,
} from "./communicationPages.ts";
import { usePreviewPrefetch } from "./PreviewPanels.tsx";

/** What of a communication page may not change: its settings (`isLocked`), its texts (`areTextsLocked`). */
export interface CommunicationLock {
  isLocked: boolean;
  areTextsLocked: boolean;
}

/**
 * One communication page (docs/specification.md §2.2): `children` renders its form, read-only when the event is locked
 * (not a draft, and the user no superuser: docs/specification.md §4) but for its texts while the event is public
 * (ADR 0031). Pessimistic: the API's field errors (an unknown placeholder) come back into the form; no redirect after
 * saving. The page's preview is asked for beside its texts (usePreviewPrefetch).
 */
export const CommunicationFrame = ({
  page,
  children,
}: {
  page: CommunicationPage;
  children: (lock: CommunicationLock) => ReactNode;
}) => {
  useVisitedView("Communications");
  const { id } = useParams<{ id: string }>();
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const { data: event } = useGetOne<Event>("events", { id: Number(id) }, { enabled: id !== undefined, retry: false });
  const lock = { isLocked: isLockedFor(event, identity), areTextsLocked: areTextsLockedFor(event, identity) };
  const dropPreviews = usePreviewPrefetch(previewOfPage(page));
  const title = translate("admin.communication.title", {
    page: translate(communicationPageLabel(page)),
    name: event?.name ?? "",
  });
  return (
    <>
      <EventNav current="communication" />
      <Edit
        resource="communication"
        id={id}
        mutationMode="pessimistic"
        // Saved: the previews asked for before were of changes over other saved texts.
        mutationOptions={{ onSettled: dropPreviews }}
        redirect={false}
        actions={false}
        title={title}
        queryOptions={{ onError: () => undefined }}
        error={<HttpErrorPage />}
      >
        <EventSubPageNav
          area="communication"
          pages={COMMUNICATION_PAGES}
          current={page}
          label="admin.communication.navigation"
          pageLabel={communicationPageLabel}
        />
        {event && (
          <RecordContextProvider value={event}>
            <EditingLockedNotice />
          </RecordContextProvider>
        )}
        {children(lock)}
      </Edit>
    </>
  );
};

// docs/specification.md §4 and docs/decisions/0031: a non-draft event is locked for editing, but for superusers (the
// API answers 409 too); its status still moves, and a public event's communication texts may still be fixed. An
// approved draft may change, but then needs a new approval. The editor and the settings and communication pages say so
// the same way.
import { Link } from "@mui/material";
import { areCommunicationTextsLocked, isEventLocked } from "@ticketing/shared/event-status";
import type { Event } from "@ticketing/shared/schemas/events";
import { useEffect, useRef } from "react";
import {
  LinkBase,
  type UserIdentity,
  useCreatePath,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { useSupportEmail } from "../supportEmail.ts";
import { AlertBanner } from "../widgets/AlertBanner.tsx";

/** Whether `event` is locked for the signed-in user (`identity`); not while the event is still loading. */
export const isLockedFor = (event: Event | undefined, identity: UserIdentity | undefined): boolean =>
  event !== undefined && isEventLocked(event.status, identity?.isSuperuser === true);

/** Whether `event`'s communication texts are locked for the signed-in user (they stay open while it is public). */
export const areTextsLockedFor = (event: Event | undefined, identity: UserIdentity | undefined): boolean =>
  event !== undefined && areCommunicationTextsLocked(event.status, identity?.isSuperuser === true);

/** Whether the record's event is locked for the signed-in user. */
export function useIsLocked(): boolean {
  const record = useRecordContext<Event>();
  const { identity } = useGetIdentity();
  return isLockedFor(record, identity);
}

/**
 * docs/specification.md §2.2: the locked event's toast, once per event, and an alert saying what may still be done —
 * for a public event, back to draft (then a new approval) or its texts; otherwise support. An approved draft's alert
 * says that a change sends it back to moderation.
 */
export const EditingLockedNotice = () => {
  const record = useRecordContext<Event>();
  const { identity } = useGetIdentity();
  const isLocked = isLockedFor(record, identity);
  const support = useSupportEmail();
  const notify = useNotify();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const notifiedFor = useRef<unknown>(null);
  const isPublic = record?.status === "public";
  useEffect(() => {
    if (!isLocked || support === null || notifiedFor.current === record?.id) return;
    notifiedFor.current = record?.id;
    notify(isPublic ? "admin.events.editingLockedPublicToast" : "admin.events.editingLockedToast", {
      type: "info",
      messageArgs: { support },
    });
  }, [isLocked, isPublic, support, notify, record?.id]);
  if (!record) return null;
  const isOrganiser = identity !== undefined && identity.isSuperuser !== true;
  if (!isLocked)
    return isOrganiser && record.status === "draft" && record.moderationStatus === "validated" ? (
      <AlertBanner state="information" isAutoClosing={false} sx={{ m: 2, mb: 0 }}>
        {translate("admin.events.approvedChanges")}
      </AlertBanner>
    ) : null;
  const statusPage = `${createPath({ resource: "events", id: record.id, type: "edit" })}/settings/status`;
  return (
    // Not auto-closing: the lock holds as long as the status does; it may be closed once read.
    <AlertBanner state="information" isAutoClosing={false} sx={{ m: 2, mb: 0 }}>
      {isPublic ? (
        <>
          {translate("admin.events.editingLockedPublic")}{" "}
          <Link component={LinkBase} to={statusPage}>
            {translate("admin.events.backToDraft")}
          </Link>{" "}
          {translate("admin.events.backToDraftThen")} {translate("admin.events.publicTexts")}{" "}
          {support && <Link href={`mailto:${support}`}>{translate("admin.events.orContactSupport")}</Link>}
        </>
      ) : (
        <>
          {translate("admin.events.editingLocked")}{" "}
          {support && <Link href={`mailto:${support}`}>{translate("admin.events.contactSupport")}</Link>}
        </>
      )}
    </AlertBanner>
  );
};

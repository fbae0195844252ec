// SPEC 4: a non-draft event is locked for editing, but for superusers (the API answers 409 too); its status still
// moves. The editor and the settings pages say so the same way.
import { Link } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import { useEffect, useRef } from "react";
import { type UserIdentity, useGetIdentity, useNotify, useRecordContext, useTranslate } from "react-admin";
import { useSupportEmail } from "../supportEmail.ts";
import { AlertBanner } from "../widgets/AlertBanner.tsx";

/** Whether `event` is locked for the signed-in user (`identity`); not while the event is still loading. */
export const isLockedFor = (event: Event | undefined, identity: UserIdentity | undefined): boolean =>
  event !== undefined && event.status !== "draft" && identity?.isSuperuser !== true;

/** Whether the record's event is locked for the signed-in user. */
export function useIsLocked(): boolean {
  const record = useRecordContext<Event>();
  const { identity } = useGetIdentity();
  return isLockedFor(record, identity);
}

/** SPEC 2.2: the locked event's toast, once per event, and an alert with a link to support. */
export const EditingLockedNotice = () => {
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
    // Not auto-closing: the lock holds as long as the status does; it may be closed once read.
    <AlertBanner state="information" isAutoClosing={false} sx={{ m: 2, mb: 0 }}>
      {translate("admin.events.editingLocked")}{" "}
      {support && <Link href={`mailto:${support}`}>{translate("admin.events.contactSupport")}</Link>}
    </AlertBanner>
  );
};

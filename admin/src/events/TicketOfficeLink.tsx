import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import { Button } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import { useRecordContext, useTranslate } from "react-admin";

type TicketOffice = Pick<Event, "status" | "ticketOfficeUrl" | "ticketOfficeTestingUrl">;

/**
 * Where the link goes: the public ticket office only while the event is public (a draft's answers 404 to buyers, a
 * closed or archived one sells nothing); its testing variant (`preview`), which the event's staff may always open.
 */
export const ticketOfficeHref = (event: TicketOffice | undefined, preview: boolean): string | undefined =>
  preview ? event?.ticketOfficeTestingUrl : event?.status === "public" ? event.ticketOfficeUrl : undefined;

/** The record's ticket office, or with `preview` its testing variant; nothing when it is not to be offered. */
export const TicketOfficeLink = ({ preview = false }: { preview?: boolean }) => {
  const record = useRecordContext<TicketOffice>();
  const translate = useTranslate();
  const href = ticketOfficeHref(record, preview);
  if (!href) return null;
  return (
    <Button
      size="small"
      href={href}
      target="_blank"
      rel="noopener"
      startIcon={<OpenInNewIcon />}
      // The list's rows open the edit page on click: the link must not do both.
      onClick={(event) => event.stopPropagation()}
    >
      {translate(preview ? "admin.events.openTicketOfficePreview" : "admin.events.openTicketOffice")}
    </Button>
  );
};

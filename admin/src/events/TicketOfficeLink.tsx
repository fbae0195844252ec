import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import { Button } from "@mui/material";
import type { Event } from "@ticketing/shared/schemas/events";
import { useRecordContext, useTranslate } from "react-admin";

/**
 * The event's public ticket office (`ticketOfficeUrl`), offered only while the event is public (a draft's answers
 * 404 to buyers, a closed or archived one sells nothing), or with `preview` its testing variant, which the event's staff may always open.
 */
export const TicketOfficeLink = ({ preview = false }: { preview?: boolean }) => {
  const record = useRecordContext<Pick<Event, "status" | "ticketOfficeUrl" | "ticketOfficeTestingUrl">>();
  const translate = useTranslate();
  const href = preview ? record?.ticketOfficeTestingUrl : record?.status === "public" && record.ticketOfficeUrl;
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

import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import { Button } from "@mui/material";
import { useRecordContext, useTranslate } from "react-admin";

/** The event's public ticket office (`ticketOfficeUrl`), or its testing variant with `preview`. */
export const TicketOfficeLink = ({ preview = false }: { preview?: boolean }) => {
  const record = useRecordContext<{ ticketOfficeUrl?: string; ticketOfficeTestingUrl?: string }>();
  const translate = useTranslate();
  const href = preview ? record?.ticketOfficeTestingUrl : record?.ticketOfficeUrl;
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

// docs/specification.md §2.2 `/events/:id/communication/*`: each page its own form of the settings it owns, its preview
// beside it.
import { Box } from "@mui/material";
import type { Communication, CommunicationMail } from "@ticketing/shared/schemas/events";
import type { ReactNode } from "react";
import { BooleanInput, FormDataConsumer, SimpleForm, TextInput } from "react-admin";
import { SaveToolbar } from "../EventSubPages.tsx";
import { CommunicationFrame, type CommunicationLock } from "./CommunicationFrame.tsx";
import { TextInLanguages } from "./CommunicationInputs.tsx";
import type { CommunicationPage } from "./communicationPages.ts";
import { MAIL_OF_PAGE } from "./communicationPages.ts";
import { ConfirmationPagePreviewPanel, MailPreviewPanel, TicketPreviewPanel } from "./PreviewPanels.tsx";

/** The form's toolbar: none when nothing on it may change (its texts are the last to lock). */
const toolbarOf = ({ areTextsLocked }: CommunicationLock) => (areTextsLocked ? false : <SaveToolbar />);

/** The form on the left, the preview on the right (below it on a narrow screen). */
const FormWithPreview = ({
  lock,
  preview,
  children,
}: {
  lock: CommunicationLock;
  preview: (values: Partial<Communication>) => ReactNode;
  children: ReactNode;
}) => (
  <SimpleForm toolbar={toolbarOf(lock)}>
    <Box sx={{ display: "grid", gridTemplateColumns: { lg: "minmax(0, 1fr) minmax(0, 1fr)" }, gap: 3, width: "100%" }}>
      <Box>{children}</Box>
      <FormDataConsumer<Partial<Communication>>>{({ formData }) => preview(formData)}</FormDataConsumer>
    </Box>
  </SimpleForm>
);

const mailPreviewOf = (page: CommunicationPage) => (values: Partial<Communication>) => (
  <MailPreviewPanel mail={MAIL_OF_PAGE[page] as CommunicationMail} values={values} />
);

/** Who the event's mails come from, whom buyers answer, and how they are signed (every mail about an order). */
export const GeneralCommunication = () => (
  <CommunicationFrame page="general">
    {(lock) => (
      <FormWithPreview lock={lock} preview={mailPreviewOf("general")}>
        <TextInput
          source="senderName"
          label="admin.communication.fields.senderName"
          helperText="admin.communication.help.senderName"
          readOnly={lock.isLocked}
          fullWidth
        />
        <TextInput
          source="replyTo"
          type="email"
          label="admin.communication.fields.replyTo"
          helperText="admin.communication.help.replyTo"
          readOnly={lock.isLocked}
          fullWidth
        />
        <TextInLanguages text="signature" isMultiline readOnly={lock.areTextsLocked} />
      </FormWithPreview>
    )}
  </CommunicationFrame>
);

/** The order confirmation (`order_confirmation`) or the payment reminder's subject and opening, per language. */
const MailCommunication = ({
  page,
  texts,
}: {
  page: "order-confirmation" | "payment-reminder";
  texts: "orderConfirmation" | "paymentReminder";
}) => (
  <CommunicationFrame page={page}>
    {(lock) => (
      <FormWithPreview lock={lock} preview={mailPreviewOf(page)}>
        <TextInLanguages text={`${texts}Subject`} readOnly={lock.areTextsLocked} />
        <TextInLanguages text={`${texts}Body`} isMultiline readOnly={lock.areTextsLocked} />
      </FormWithPreview>
    )}
  </CommunicationFrame>
);

export const OrderConfirmationCommunication = () => (
  <MailCommunication page="order-confirmation" texts="orderConfirmation" />
);

export const PaymentReminderCommunication = () => <MailCommunication page="payment-reminder" texts="paymentReminder" />;

/** What the ticket office's confirmation page says after an order, or the organiser's page buyers go on to. */
export const ConfirmationPageCommunication = () => (
  <CommunicationFrame page="order-confirmation-page">
    {(lock) => (
      <FormWithPreview lock={lock} preview={(values) => <ConfirmationPagePreviewPanel values={values} />}>
        <TextInLanguages text="confirmationPageText" isMultiline readOnly={lock.areTextsLocked} />
        <TextInput
          source="confirmationRedirectUrl"
          type="url"
          label="admin.communication.fields.confirmationRedirectUrl"
          helperText="admin.communication.help.confirmationRedirectUrl"
          readOnly={lock.isLocked}
          fullWidth
        />
      </FormWithPreview>
    )}
  </CommunicationFrame>
);

/** Whether the confirmation mail carries PDF tickets, and the organiser's text printed on each. */
export const PdfTicketCommunication = () => (
  <CommunicationFrame page="pdf-ticket">
    {(lock) => (
      <FormWithPreview lock={lock} preview={(values) => <TicketPreviewPanel values={values} />}>
        <BooleanInput
          source="isPdfTicketEnabled"
          label="admin.communication.fields.isPdfTicketEnabled"
          helperText="admin.communication.help.isPdfTicketEnabled"
          readOnly={lock.isLocked}
        />
        <TextInLanguages text="pdfTicketText" isMultiline readOnly={lock.areTextsLocked} />
      </FormWithPreview>
    )}
  </CommunicationFrame>
);

import ForwardToInboxIcon from "@mui/icons-material/ForwardToInbox";
import { Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import type { MAIL_STATUSES } from "@ticketing/shared/constants";
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { ConfirmButton } from "../../fields/ConfirmButton.tsx";
import { canResendConfirmation } from "./basketDetail.ts";
import { Empty, Section, useBasketFormat, useFailureText } from "./basketParts.tsx";

const MAIL_STATUS_COLOURS: Record<(typeof MAIL_STATUSES)[number], "default" | "success" | "error"> = {
  pending: "default",
  sent: "success",
  failed: "error",
  cancelled: "default",
};

/** "Resend confirmation": the order confirmation queued again to the billing address, once staff confirm it. */
const ResendButton = ({ basketId, email, onSent }: { basketId: number; email: string; onSent: () => void }) => {
  const notify = useNotify();
  const failureText = useFailureText();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const resend = async () => {
    try {
      const { data } = await dataProvider.resendConfirmation(basketId);
      notify("admin.basketDetail.mails.resent", { type: "success", messageArgs: { email: data.to } });
      onSent();
    } catch (error) {
      notify(failureText("admin.basketDetail.mails.resendFailed", error), { type: "error" });
      return false;
    }
  };
  return (
    <ConfirmButton
      size="small"
      variant="outlined"
      icon={<ForwardToInboxIcon />}
      label="admin.basketDetail.mails.resend"
      title="admin.basketDetail.mails.resendTitle"
      content="admin.basketDetail.mails.resendContent"
      contentTranslateOptions={{ email }}
      confirm="admin.basketDetail.mails.resend"
      onConfirm={resend}
    />
  );
};

/** The mails about the basket, newest first: what kind, to whom, whether it left, and when. */
export const BasketMails = ({ basket, onChanged }: { basket: BasketDetail; onChanged: () => void }) => {
  const translate = useTranslate();
  const { date } = useBasketFormat();
  const email = basket.billingInformation?.email;
  return (
    <Section
      title={translate("admin.basketDetail.mails.title")}
      action={
        canResendConfirmation(basket) && email && <ResendButton basketId={basket.id} email={email} onSent={onChanged} />
      }
    >
      {basket.mails.length === 0 ? (
        <Empty text={translate("admin.basketDetail.mails.none")} />
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.basketDetail.mails.kind")}</TableCell>
              <TableCell>{translate("admin.basketDetail.mails.to")}</TableCell>
              <TableCell>{translate("admin.basketDetail.mails.status")}</TableCell>
              <TableCell>{translate("admin.basketDetail.mails.createdAt")}</TableCell>
              <TableCell>{translate("admin.basketDetail.mails.sentAt")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {basket.mails.map((mail) => (
              <TableRow key={mail.id}>
                <TableCell>
                  {translate(`admin.basketDetail.mails.kinds.${mail.kind}`)}
                  {mail.subject && (
                    <Typography variant="body2" color="text.secondary">
                      {mail.subject}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ wordBreak: "break-all" }}>{mail.to}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={MAIL_STATUS_COLOURS[mail.status]}
                    variant={mail.status === "pending" ? "outlined" : "filled"}
                    label={translate(`admin.basketDetail.mails.statuses.${mail.status}`)}
                  />
                </TableCell>
                <TableCell>{date(mail.createdAt)}</TableCell>
                <TableCell>{mail.sentAt ? date(mail.sentAt) : "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
};

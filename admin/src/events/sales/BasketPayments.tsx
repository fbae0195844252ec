import PointOfSaleIcon from "@mui/icons-material/PointOfSale";
import { Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import type { InvoiceRow } from "@ticketing/shared/schemas/invoices";
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import type { PaymentIntent } from "@ticketing/shared/schemas/ticket-office";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import { AdminLink } from "../../auth/AuthCard.tsx";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { ConfirmButton } from "../../fields/ConfirmButton.tsx";
import { isPendingPointOfSale } from "./basketDetail.ts";
import { Empty, Section, useBasketFormat, useFailureText } from "./basketParts.tsx";

/**
 * "Mark as paid" on a point-of-sale payment the buyer has just paid on site: staff confirm the amount taken, the
 * API resolves the invoice (the basket becomes validated and its confirmation is mailed).
 */
const MarkPaidButton = ({ intent, onPaid }: { intent: PaymentIntent; onPaid: () => void }) => {
  const notify = useNotify();
  const failureText = useFailureText();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const { money } = useBasketFormat();
  const markPaid = async () => {
    try {
      const { data } = await dataProvider.markInvoicePaid(intent.invoiceId);
      notify(data.changed ? "admin.basketDetail.markPaid.done" : "admin.basketDetail.markPaid.unchanged", {
        type: data.changed ? "success" : "info",
      });
      onPaid();
    } catch (error) {
      notify(failureText("admin.basketDetail.markPaid.failed", error), { type: "error" });
      return false;
    }
  };
  return (
    <ConfirmButton
      size="small"
      variant="contained"
      icon={<PointOfSaleIcon />}
      label="admin.basketDetail.markPaid.action"
      title="admin.basketDetail.markPaid.title"
      content="admin.basketDetail.markPaid.content"
      contentTranslateOptions={{ amount: money(intent.invoice.amount) }}
      confirm="admin.basketDetail.markPaid.action"
      onConfirm={markPaid}
    />
  );
};

/** The basket's payments, newest first, with "Mark as paid" on a point-of-sale one still to pay. */
export const BasketPayments = ({ basket, onChanged }: { basket: BasketDetail; onChanged: () => void }) => {
  const translate = useTranslate();
  const { money, date } = useBasketFormat();
  const hasPendingPointOfSale = basket.paymentIntents.some(isPendingPointOfSale);
  return (
    <Section title={translate("admin.basketDetail.payments")}>
      {basket.paymentIntents.length === 0 ? (
        <Empty text={translate("admin.basketDetail.noPayments")} />
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.basketDetail.module")}</TableCell>
              <TableCell>{translate("admin.basketDetail.state")}</TableCell>
              <TableCell align="right">{translate("admin.basketDetail.amount")}</TableCell>
              <TableCell>{translate("admin.basketDetail.createdAt")}</TableCell>
              {hasPendingPointOfSale && <TableCell>{translate("admin.basketDetail.actions")}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {basket.paymentIntents.map((intent) => (
              <TableRow key={intent.id}>
                <TableCell>{translate(`admin.paymentModule.${intent.moduleKey}`)}</TableCell>
                <TableCell>{translate(`admin.paymentState.${intent.state}`)}</TableCell>
                <TableCell align="right">{money(intent.invoice.amount)}</TableCell>
                <TableCell>{date(intent.createdAt)}</TableCell>
                {hasPendingPointOfSale && (
                  <TableCell>
                    {isPendingPointOfSale(intent) && <MarkPaidButton intent={intent} onPaid={onChanged} />}
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
};

/** The basket's invoices and credit notes, each opening its own page. */
export const BasketInvoices = ({ basket, invoices }: { basket: BasketDetail; invoices: InvoiceRow[] | undefined }) => {
  const translate = useTranslate();
  const { money, date } = useBasketFormat();
  return (
    <Section title={translate("admin.basketDetail.invoices")}>
      {!invoices?.length ? (
        <Empty text={translate("admin.basketDetail.noInvoices")} />
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.basketDetail.number")}</TableCell>
              <TableCell>{translate("admin.basketDetail.kind")}</TableCell>
              <TableCell align="right">{translate("admin.basketDetail.amount")}</TableCell>
              <TableCell>{translate("admin.basketDetail.status")}</TableCell>
              <TableCell>{translate("admin.basketDetail.createdAt")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {invoices.map((invoice) => (
              <TableRow key={invoice.id}>
                <TableCell>
                  <AdminLink to={`/events/${basket.eventId}/baskets/${basket.id}/invoices/${invoice.id}`}>
                    {invoice.displayNumber}
                  </AdminLink>
                </TableCell>
                <TableCell>
                  {translate(invoice.isRefund ? "admin.basketDetail.creditNote" : "admin.basketDetail.invoice")}
                </TableCell>
                <TableCell align="right">{money(invoice.amount)}</TableCell>
                <TableCell>{translate(`admin.invoiceStatus.${invoice.status}`)}</TableCell>
                <TableCell>{date(invoice.createdAt)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
};

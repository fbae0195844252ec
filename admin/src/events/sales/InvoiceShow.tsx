import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import PictureAsPdfIcon from "@mui/icons-material/PictureAsPdf";
import ReceiptLongIcon from "@mui/icons-material/ReceiptLong";
import {
  Box,
  Card,
  CardContent,
  CircularProgress,
  Button as MuiButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { LANGUAGES, type Language } from "@ticketing/shared/constants";
import { formatMoney } from "@ticketing/shared/money";
import type { InvoiceDetail } from "@ticketing/shared/schemas/invoices";
import { type ReactNode, useId, useState } from "react";
import {
  Button,
  LinkBase,
  Title,
  TopToolbar,
  useBasename,
  useDataProvider,
  useGetOne,
  useLocaleState,
  useNotify,
  useParams,
  useTranslate,
} from "react-admin";
import { Navigate } from "react-router";
import { AdminLink } from "../../auth/AuthCard.tsx";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { errorPageOf } from "../../layout/errorPage.ts";
import { InvoiceStatusChip } from "./EventInvoiceList.tsx";
import { invoicePath, paymentModuleLabel, paymentStateLabel, saveFile } from "./invoiceStatus.ts";

const Section = ({ title, children }: { title: string; children: ReactNode }) => {
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId} sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" id={headingId} gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
};

/** A label and its value, in a definition list. */
const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box sx={{ display: "contents" }}>
    <Typography component="dt" color="text.secondary">
      {label}
    </Typography>
    <Typography component="dd" sx={{ m: 0 }}>
      {children}
    </Typography>
  </Box>
);

/** The two PDF buttons: the document in English or in French, whatever the back office's language. */
const PdfButtons = ({ invoice }: { invoice: InvoiceDetail }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [busy, setBusy] = useState<Language | null>(null);
  const download = async (language: Language) => {
    setBusy(language);
    try {
      const { data } = await dataProvider.downloadInvoicePdf(invoice.id, language);
      saveFile(data.blob, data.fileName);
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : "admin.invoices.downloadFailed", {
        type: "error",
      });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap" }}>
      {LANGUAGES.map((language) => (
        <MuiButton
          key={language}
          variant="outlined"
          startIcon={busy === language ? <CircularProgress size={16} /> : <PictureAsPdfIcon />}
          disabled={busy !== null}
          onClick={() => download(language)}
        >
          {translate(`admin.invoices.downloadPdf.${language}`)}
        </MuiButton>
      ))}
    </Stack>
  );
};

/**
 * docs/specification.md §2.2 `/events/:id/baskets/:basketId/invoices/:invoiceId`: an invoice (or a refund's credit
 * note), its lines with their options under their article, the buyer's billing, the invoices related to it, its
 * payments, and its PDF.
 */
export const InvoiceShow = () => {
  const params = useParams<{ id?: string; basketId?: string; invoiceId?: string }>();
  const eventId = Number(params.id);
  const invoiceId = Number(params.invoiceId);
  const translate = useTranslate();
  const basename = useBasename();
  const [locale] = useLocaleState();
  const {
    data: invoice,
    error,
    isPending,
  } = useGetOne<InvoiceDetail>(
    "invoices",
    { id: invoiceId },
    { enabled: Number.isInteger(invoiceId) && invoiceId > 0, retry: false },
  );
  const money = (cents: number) => formatMoney(cents, locale);
  const date = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(intlLocaleOf(locale), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso))
      : "—";

  if (!Number.isInteger(invoiceId) || invoiceId <= 0 || error) {
    const page = errorPageOf(Number.isInteger(invoiceId) ? (error as { status?: number } | null)?.status : 404);
    return (
      <Box sx={{ p: 4, textAlign: "center" }} role="alert">
        <Title title={translate(page.title, page.options)} />
        <Typography variant="h4" component="h1">
          {translate(page.title, page.options)}
        </Typography>
      </Box>
    );
  }
  // Opened from a list, react-admin first hands over the list's row (it seeds the one-record cache with it), which
  // has no lines: wait for the invoice's own answer.
  if (isPending || !invoice || !("lines" in invoice))
    return <CircularProgress sx={{ m: 4 }} aria-label={translate("ra.page.loading")} />;
  // The address names the invoice's basket and event: a wrong one leads to the right one.
  if (String(invoice.basketId) !== params.basketId || invoice.eventId !== eventId)
    return <Navigate replace to={`${basename}${invoicePath(invoice.eventId, invoice)}`} />;

  const basketPath = `/events/${eventId}/baskets/${invoice.basketId}`;
  const heading = translate(invoice.isRefund ? "admin.invoices.creditNoteNumber" : "admin.invoices.invoiceNumber", {
    number: invoice.displayNumber,
  });
  const billing = invoice.billingInformation;

  return (
    <Box sx={{ pb: 4 }}>
      <Title title={heading} />
      <TopToolbar sx={{ justifyContent: "flex-start" }}>
        <Button component={LinkBase} label="admin.invoices.backToBasket" to={basketPath}>
          <ArrowBackIcon />
        </Button>
        <Button component={LinkBase} label="admin.invoices.allInvoices" to={`/events/${eventId}/invoices`}>
          <ReceiptLongIcon />
        </Button>
      </TopToolbar>

      <Card>
        <CardContent>
          <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap", mb: 2 }}>
            <Typography variant="h5" component="h1">
              {heading}
            </Typography>
            <InvoiceStatusChip invoice={invoice} />
          </Stack>
          <Box
            component="dl"
            sx={{ display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: 3, rowGap: 1, m: 0, mb: 2 }}
          >
            <Fact label={translate("resources.invoices.fields.amount")}>
              <strong>{money(invoice.amount)}</strong>
            </Fact>
            <Fact label={translate("resources.invoices.fields.createdAt")}>{date(invoice.createdAt)}</Fact>
            {!invoice.isRefund && (
              <Fact label={translate("resources.invoices.fields.dueDate")}>{date(invoice.dueDate)}</Fact>
            )}
            <Fact label={translate("resources.invoices.fields.resolvedAt")}>{date(invoice.resolvedAt)}</Fact>
            <Fact label={translate("resources.invoices.fields.basketReference")}>
              <AdminLink to={basketPath}>{invoice.basketReference}</AdminLink>
            </Fact>
            <Fact label={translate("resources.invoices.fields.event")}>{invoice.basket.eventTitle}</Fact>
            <Fact label={translate("resources.invoices.fields.unit")}>{invoice.unit.name}</Fact>
            {invoice.isRefund && (
              <Fact label={translate("resources.invoices.fields.reason")}>{invoice.reason || "—"}</Fact>
            )}
          </Box>
          <PdfButtons invoice={invoice} />
        </CardContent>
      </Card>

      <Section title={translate("admin.invoices.lines")}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.invoices.description")}</TableCell>
              <TableCell align="right">{translate("resources.invoices.fields.amount")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {invoice.lines.map((line) => (
              <TableRow key={line.id}>
                <TableCell sx={line.isOption ? { pl: 5, color: "text.secondary" } : { fontWeight: "bold" }}>
                  {line.isOption ? `+ ${line.title}` : line.title}
                </TableCell>
                <TableCell align="right" sx={line.isOption ? { color: "text.secondary" } : undefined}>
                  {money(line.amount)}
                </TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell sx={{ fontWeight: "bold" }}>{translate("admin.invoices.total")}</TableCell>
              <TableCell align="right" sx={{ fontWeight: "bold" }}>
                {money(invoice.amount)}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
      </Section>

      <Section title={translate("admin.invoices.billing")}>
        {billing?.erasedAt ? (
          <Typography color="text.secondary">
            {translate("admin.personalData.erasedNote", { date: date(billing.erasedAt) })}
          </Typography>
        ) : billing ? (
          <Typography component="address" sx={{ fontStyle: "normal", whiteSpace: "pre-line" }}>
            {[
              `${billing.firstName} ${billing.lastName}`.trim(),
              billing.address,
              `${billing.postalCode} ${billing.city}`.trim(),
              billing.country,
              billing.email,
            ]
              .filter((line) => line.trim() !== "")
              .join("\n")}
          </Typography>
        ) : (
          <Typography color="text.secondary">{translate("admin.invoices.noBilling")}</Typography>
        )}
      </Section>

      <Section title={translate("admin.invoices.related")}>
        {invoice.relatedInvoices.length === 0 ? (
          <Typography color="text.secondary">{translate("admin.invoices.noRelated")}</Typography>
        ) : (
          <Table size="small">
            <TableBody>
              {invoice.relatedInvoices.map((other) => (
                <TableRow key={other.id}>
                  <TableCell>
                    <AdminLink to={invoicePath(eventId, other)}>
                      {translate(other.isRefund ? "admin.invoices.creditNoteNumber" : "admin.invoices.invoiceNumber", {
                        number: other.displayNumber,
                      })}
                    </AdminLink>
                  </TableCell>
                  <TableCell>{date(other.createdAt)}</TableCell>
                  <TableCell align="right">{money(other.amount)}</TableCell>
                  <TableCell>
                    <InvoiceStatusChip invoice={other} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Section>

      <Section title={translate("admin.invoices.payments")}>
        {invoice.paymentIntents.length === 0 ? (
          <Typography color="text.secondary">{translate("admin.invoices.noPayments")}</Typography>
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate("admin.invoices.paymentModule")}</TableCell>
                <TableCell>{translate("admin.invoices.pspId")}</TableCell>
                <TableCell>{translate("resources.invoices.fields.status")}</TableCell>
                <TableCell>{translate("resources.invoices.fields.createdAt")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {invoice.paymentIntents.map((payment) => (
                <TableRow key={payment.id}>
                  <TableCell>{translate(paymentModuleLabel(payment.moduleKey))}</TableCell>
                  <TableCell sx={{ fontFamily: "monospace", wordBreak: "break-all" }}>
                    {payment.pspPaymentId ?? payment.pspId}
                  </TableCell>
                  <TableCell>{translate(paymentStateLabel(payment.state))}</TableCell>
                  <TableCell>{date(payment.createdAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Section>
    </Box>
  );
};

import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import CurrencyExchangeIcon from "@mui/icons-material/CurrencyExchange";
import {
  Box,
  Card,
  CardContent,
  Chip,
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
import { formatMoney } from "@ticketing/shared/money";
import type { InvoiceRow } from "@ticketing/shared/schemas/invoices";
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import { type ReactNode, useId, useState } from "react";
import {
  Button,
  LinkBase,
  Title,
  TopToolbar,
  useBasename,
  useGetList,
  useGetOne,
  useLocaleState,
  useParams,
  useTranslate,
} from "react-admin";
import { AdminLink } from "../../auth/AuthCard.tsx";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { RefundDialog } from "./RefundDialog.tsx";
import { articleRows, canRefund, paymentStateOf } from "./refundPlan.ts";

const STATUS_COLOURS = {
  new: "default",
  payment_in_progress: "info",
  validated: "success",
  edition_in_progress: "warning",
  refunded: "default",
} as const;

/** A titled block of the page. */
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

const Empty = ({ text }: { text: string }) => (
  <Typography variant="body2" color="text.secondary">
    {text}
  </Typography>
);

/**
 * SPEC 2.2 `/events/:id/baskets/:basketId`: one basket for staff — its reference and status, the buyer, the articles
 * with their options, prices and status (held or refunded), its payments and invoices (each invoice opens its own
 * page), and the refund (RefundDialog).
 */
export const BasketShow = () => {
  const { id, basketId } = useParams<{ id?: string; basketId?: string }>();
  const eventId = Number(id);
  const basketNumber = Number(basketId);
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [isRefunding, setRefunding] = useState(false);
  const isValid = Number.isInteger(basketNumber) && basketNumber > 0;
  const {
    data: basket,
    isPending,
    error,
    refetch,
  } = useGetOne<BasketDetail>("baskets", { id: basketNumber }, { enabled: isValid });
  // A testing (preview) basket's invoices are listed only when asked for.
  const { data: invoices, refetch: refetchInvoices } = useGetList<InvoiceRow>(
    "invoices",
    {
      filter: { basketId: basketNumber, preview: basket?.testing ?? false },
      sort: { field: "id", order: "ASC" },
      pagination: { page: 1, perPage: 100 },
    },
    { enabled: isValid && basket !== undefined },
  );
  const money = (cents: number) => formatMoney(cents, locale);
  const date = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(intlLocaleOf(locale), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso))
      : "";
  const basename = useBasename();
  const listPath = `${basename}/events/${eventId}/baskets`;

  const toolbar = (
    <TopToolbar>
      <Button component={LinkBase} label="admin.basketDetail.backToBaskets" to={listPath}>
        <ArrowBackIcon />
      </Button>
    </TopToolbar>
  );

  if (!isValid || error || (basket && basket.eventId !== eventId))
    return (
      <Box>
        {toolbar}
        <Typography role="alert">{translate("admin.basketDetail.notFound")}</Typography>
      </Box>
    );
  // Opened from the baskets list, react-admin first hands over the list's row (it seeds the one-record cache with
  // it), which has no payments nor refunded articles: wait for the basket's own answer.
  if (isPending || !basket || !("paymentIntents" in basket)) return <CircularProgress size={24} sx={{ m: 2 }} />;

  const billing = basket.billingInformation;
  const articles = articleRows(basket);

  return (
    <Box sx={{ pb: 4 }}>
      <Title title={translate("admin.basketDetail.title", { reference: basket.unikey })} />
      {toolbar}
      <Card>
        <CardContent>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={4} useFlexGap sx={{ flexWrap: "wrap" }}>
            <Box>
              <Typography variant="overline" component="p">
                {translate("admin.basketDetail.reference")}
              </Typography>
              <Typography variant="h5" component="h1" sx={{ fontFamily: "monospace" }}>
                {basket.unikey}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                #{basket.id} · {date(basket.createdAt)}
                {basket.testing ? ` · ${translate("admin.basketDetail.testing")}` : ""}
              </Typography>
            </Box>
            <Box>
              <Typography variant="overline" component="p">
                {translate("admin.basketDetail.status")}
              </Typography>
              <Chip
                color={STATUS_COLOURS[basket.status]}
                label={translate(`admin.basketStatus.${basket.status}`)}
                variant={basket.status === "refunded" ? "outlined" : "filled"}
              />
            </Box>
            <Box>
              <Typography variant="overline" component="p">
                {translate("admin.basketDetail.buyer")}
              </Typography>
              {billing ? (
                <Typography variant="body2" component="address" sx={{ fontStyle: "normal" }}>
                  <strong>
                    {billing.firstName} {billing.lastName}
                  </strong>
                  <br />
                  {billing.email}
                  <br />
                  {billing.address}
                  <br />
                  {billing.postalCode} {billing.city}, {billing.country}
                </Typography>
              ) : (
                <Empty text={translate("admin.basketDetail.noBuyer")} />
              )}
            </Box>
            <Box>
              <Typography variant="overline" component="p">
                {translate("admin.basketDetail.money")}
              </Typography>
              <Typography variant="body2">
                {translate("admin.basketDetail.paidAmount", { amount: money(basket.paidAmount) })}
              </Typography>
              <Typography variant="body2">
                {translate("admin.basketDetail.refundedAmount", { amount: money(basket.refundedAmount) })}
              </Typography>
            </Box>
          </Stack>
          {canRefund(basket) && (
            <MuiButton
              variant="outlined"
              color="error"
              startIcon={<CurrencyExchangeIcon />}
              sx={{ mt: 2 }}
              onClick={() => setRefunding(true)}
            >
              {translate("admin.refund.action")}
            </MuiButton>
          )}
        </CardContent>
      </Card>

      <Section title={translate("admin.basketDetail.articles")}>
        {articles.length === 0 ? (
          <Empty text={translate("admin.basketDetail.noArticles")} />
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate("admin.basketDetail.article")}</TableCell>
                <TableCell align="right">{translate("admin.basketDetail.price")}</TableCell>
                <TableCell>{translate("admin.basketDetail.status")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {articles.map(({ item, status }) => (
                <TableRow key={item.id}>
                  <TableCell>
                    {item.title}{" "}
                    <Typography component="span" variant="caption" color="text.secondary">
                      #{item.id}
                    </Typography>
                    {item.options.map((option) => (
                      <Typography key={option.id} variant="body2" color="text.secondary" sx={{ pl: 2 }}>
                        + {option.title}
                        {option.price ? ` (${money(option.price)})` : ""}
                      </Typography>
                    ))}
                  </TableCell>
                  <TableCell align="right" sx={{ verticalAlign: "top", whiteSpace: "nowrap" }}>
                    {money(item.price)}
                  </TableCell>
                  <TableCell sx={{ verticalAlign: "top" }}>
                    <Chip
                      size="small"
                      color={status === "held" ? "success" : "default"}
                      variant={status === "held" ? "filled" : "outlined"}
                      label={translate(`admin.basketDetail.itemStatus.${status}`)}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Section>

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
              </TableRow>
            </TableHead>
            <TableBody>
              {basket.paymentIntents.map((intent) => (
                <TableRow key={intent.id}>
                  <TableCell>{translate(`admin.paymentModule.${intent.moduleKey}`)}</TableCell>
                  <TableCell>{translate(`admin.paymentState.${paymentStateOf(intent)}`)}</TableCell>
                  <TableCell align="right">{money(intent.invoice.amount)}</TableCell>
                  <TableCell>{date(intent.createdAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Section>

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
                    <AdminLink to={`/events/${eventId}/baskets/${basket.id}/invoices/${invoice.id}`}>
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

      {isRefunding && (
        <RefundDialog
          basket={basket}
          onClose={() => setRefunding(false)}
          onRefunded={() => {
            setRefunding(false);
            refetch();
            refetchInvoices();
          }}
        />
      )}
    </Box>
  );
};

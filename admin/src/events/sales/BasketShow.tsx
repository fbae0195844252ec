import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import { Box, CircularProgress, Typography } from "@mui/material";
import type { InvoiceRow } from "@ticketing/shared/schemas/invoices";
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import { useState } from "react";
import {
  Button,
  LinkBase,
  Title,
  TopToolbar,
  useBasename,
  useGetList,
  useGetOne,
  useParams,
  useTranslate,
} from "react-admin";
import { BasketArticles } from "./BasketArticles.tsx";
import { BasketMails } from "./BasketMails.tsx";
import { BasketInvoices, BasketPayments } from "./BasketPayments.tsx";
import { BasketSummary } from "./BasketSummary.tsx";
import { BasketTickets } from "./BasketTickets.tsx";
import { RefundDialog } from "./RefundDialog.tsx";

/**
 * docs/specification.md §2.2 `/events/:id/baskets/:basketId`: one basket for support staff — its reference, status,
 * buyer and money; the articles with their options, prices, status (held or refunded) and form answers; its payments
 * ("Mark as paid" for one at the point of sale) and invoices (each opens its own page); the mails about it ("Resend
 * confirmation"); its tickets (download); and the refund (RefundDialog). Each action refreshes the page.
 */
export const BasketShow = () => {
  const { id, basketId } = useParams<{ id?: string; basketId?: string }>();
  const eventId = Number(id);
  const basketNumber = Number(basketId);
  const translate = useTranslate();
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
  const basename = useBasename();
  const listPath = `${basename}/events/${eventId}/baskets`;
  const reload = () => {
    refetch();
    refetchInvoices();
  };

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
  // it), which has no payments, refunded articles, answers nor mails: wait for the basket's own answer.
  if (isPending || !basket || !("paymentIntents" in basket) || !("mails" in basket))
    return <CircularProgress size={24} sx={{ m: 2 }} aria-label={translate("ra.page.loading")} />;

  return (
    <Box sx={{ pb: 4 }}>
      <Title title={translate("admin.basketDetail.title", { reference: basket.unikey })} />
      {toolbar}
      <BasketSummary basket={basket} onRefund={() => setRefunding(true)} />
      <BasketArticles basket={basket} />
      <BasketPayments basket={basket} onChanged={reload} />
      <BasketInvoices basket={basket} invoices={invoices} />
      <BasketMails basket={basket} onChanged={reload} />
      <BasketTickets basket={basket} />
      {isRefunding && (
        <RefundDialog
          basket={basket}
          onClose={() => setRefunding(false)}
          onRefunded={() => {
            setRefunding(false);
            reload();
          }}
        />
      )}
    </Box>
  );
};

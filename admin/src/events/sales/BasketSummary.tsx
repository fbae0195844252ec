import CurrencyExchangeIcon from "@mui/icons-material/CurrencyExchange";
import { Box, Button, Card, CardContent, Chip, Stack, Typography } from "@mui/material";
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import { useTranslate } from "react-admin";
import { Empty, useBasketFormat } from "./basketParts.tsx";
import { canRefund } from "./refundPlan.ts";

const STATUS_COLOURS = {
  new: "default",
  payment_in_progress: "info",
  validated: "success",
  edition_in_progress: "warning",
  refunded: "default",
} as const;

/** The basket at a glance: its reference, status, buyer (billing information) and money, and the refund button. */
export const BasketSummary = ({ basket, onRefund }: { basket: BasketDetail; onRefund: () => void }) => {
  const translate = useTranslate();
  const { money, date } = useBasketFormat();
  const billing = basket.billingInformation;
  return (
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
            {billing?.erasedAt ? (
              <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 240 }}>
                {translate("admin.personalData.erasedNote", { date: date(billing.erasedAt) })}
              </Typography>
            ) : billing ? (
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
          <Button
            variant="outlined"
            color="error"
            startIcon={<CurrencyExchangeIcon />}
            sx={{ mt: 2 }}
            onClick={onRefund}
          >
            {translate("admin.refund.action")}
          </Button>
        )}
      </CardContent>
    </Card>
  );
};

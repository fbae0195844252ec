import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from "@mui/material";
import { formatMoney } from "@ticketing/shared/money";
import type { BasketDetail } from "@ticketing/shared/schemas/sales";
import { type FormEvent, useId, useState } from "react";
import { useDataProvider, useLocaleState, useNotify, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { chosenItems, refundAmountOf, refundableAmount, refundMethodOf } from "./refundPlan.ts";

const MAX_REASON = 500; // as the API allows (shared/schemas/sales.ts RefundRequest)

/**
 * docs/specification.md §2.2 basket detail "with refund": pick the whole basket or articles (their options go with
 * them), give a reason, see the amount that will be paid back and how, confirm; then "Refund succeeded" or
 * "Refund failed" with the server's message (docs/specification.md §8). A failure keeps the dialog open to try again.
 */
export const RefundDialog = ({
  basket,
  onClose,
  onRefunded,
}: {
  basket: BasketDetail;
  onClose: () => void;
  onRefunded: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const titleId = useId();
  const [scope, setScope] = useState<"all" | "chosen">("all");
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [reason, setReason] = useState("");
  const [isTouched, setTouched] = useState(false);
  const [step, setStep] = useState<"choose" | "confirm">("choose");
  const [isPending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const items = chosenItems(basket.items, scope === "all" ? "all" : chosen);
  const amount = refundAmountOf(items);
  const left = refundableAmount(basket);
  const money = (cents: number) => formatMoney(cents, locale);
  const method = refundMethodOf(basket);
  const buyer = basket.billingInformation
    ? `${basket.billingInformation.firstName} ${basket.billingInformation.lastName}`.trim()
    : translate("admin.basketDetail.noBuyer");
  const isReasonMissing = reason.trim() === "";
  const isNoneChosen = items.length === 0;
  const isTooMuch = amount > left;

  const toggle = (id: number) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const proceed = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setTouched(true);
    if (!isReasonMissing && !isNoneChosen && !isTooMuch) setStep("confirm");
  };

  const refund = async () => {
    setPending(true);
    setFailure(null);
    try {
      await dataProvider.refundBasket(basket.id, {
        ...(scope === "chosen" ? { itemIds: items.map((item) => item.id) } : {}),
        reason: reason.trim(),
      });
      notify("admin.refund.succeeded", { type: "success" });
      onRefunded();
    } catch (error) {
      // "Refund failed", with the server's reason when it says more (the provider's failure says just that).
      const failed = translate("admin.refund.failed");
      const message = error instanceof Error && error.message ? translate(error.message) : "";
      const text = message && message !== failed ? `${failed}: ${message}` : failed;
      setFailure(text);
      setStep("choose");
      notify(text, { type: "error" });
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open onClose={isPending ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      {step === "choose" ? (
        <form onSubmit={proceed} noValidate>
          <DialogTitle id={titleId}>{translate("admin.refund.title", { reference: basket.unikey })}</DialogTitle>
          <DialogContent>
            {failure && (
              <Alert severity="error" sx={{ mb: 2 }}>
                {failure}
              </Alert>
            )}
            <RadioGroup
              value={scope}
              onChange={(event) => setScope(event.target.value === "chosen" ? "chosen" : "all")}
              aria-label={translate("admin.refund.scope")}
            >
              <FormControlLabel
                value="all"
                control={<Radio />}
                label={translate("admin.refund.whole", {
                  smart_count: basket.items.length,
                  amount: money(refundAmountOf(basket.items)),
                })}
              />
              <FormControlLabel value="chosen" control={<Radio />} label={translate("admin.refund.chosen")} />
            </RadioGroup>
            {scope === "chosen" && (
              <FormGroup sx={{ pl: 4 }}>
                {basket.items.map((item) => (
                  <FormControlLabel
                    key={item.id}
                    control={<Checkbox checked={chosen.has(item.id)} onChange={() => toggle(item.id)} />}
                    label={`${[item.title, ...item.options.map((option) => option.title)].join(" + ")} (#${item.id}) — ${money(item.price)}`}
                  />
                ))}
                {isTouched && isNoneChosen && (
                  <Typography color="error" variant="body2">
                    {translate("admin.refund.noneChosen")}
                  </Typography>
                )}
              </FormGroup>
            )}
            <TextField
              multiline
              minRows={2}
              fullWidth
              required
              margin="normal"
              label={translate("admin.refund.reason")}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              onBlur={() => setTouched(true)}
              slotProps={{ htmlInput: { maxLength: MAX_REASON } }}
              error={isTouched && isReasonMissing}
              helperText={
                isTouched && isReasonMissing
                  ? translate("ra.validation.required")
                  : translate("admin.refund.reasonHelp")
              }
            />
            <Box role="status" sx={{ mt: 1 }}>
              <Typography variant="subtitle1" component="p">
                {translate("admin.refund.amount", { amount: money(amount) })}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate(`admin.refund.method.${amount === 0 ? "none" : method}`)}
              </Typography>
              {isTooMuch && (
                <Typography variant="body2" color="error">
                  {translate("admin.refund.tooMuch", { left: money(left) })}
                </Typography>
              )}
            </Box>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{translate("ra.action.cancel")}</Button>
            <Button type="submit" variant="contained" disabled={isTooMuch}>
              {translate("admin.refund.next")}
            </Button>
          </DialogActions>
        </form>
      ) : (
        <>
          <DialogTitle id={titleId}>{translate("admin.refund.confirmTitle")}</DialogTitle>
          <DialogContent>
            <DialogContentText>
              {translate("admin.refund.confirmText", { amount: money(amount), buyer, smart_count: items.length })}
            </DialogContentText>
            <Box component="ul" sx={{ mt: 1, mb: 0 }}>
              {items.map((item) => (
                <li key={item.id}>
                  {[item.title, ...item.options.map((option) => option.title)].join(" + ")} — {money(item.price)}
                </li>
              ))}
            </Box>
            <DialogContentText sx={{ mt: 1 }}>
              {translate("admin.refund.reasonGiven", { reason: reason.trim() })}
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setStep("choose")} disabled={isPending}>
              {translate("admin.refund.back")}
            </Button>
            <Button color="error" variant="contained" onClick={refund} disabled={isPending}>
              {translate("admin.refund.confirm", { amount: money(amount) })}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
};

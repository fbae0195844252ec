// Cancelling an event from its status settings (docs/decisions/0047-cancelling-an-event.md): the message to buyers in
// English and French, a confirmation that says what will happen (the paid orders refunded, those to refund by hand),
// then the refunds' progress, asked again every few seconds while the worker goes on: refunded, to refund by hand
// (each marked once paid back), failed (retried).
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Chip,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { visuallyHidden } from "@mui/utils";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type CancellationBasketState,
  type Language,
  MAX_CANCELLATION_MESSAGE_LENGTH,
} from "@ticketing/shared/constants";
import { formatMoney } from "@ticketing/shared/money";
import type { CancellationBasket, EventCancellation } from "@ticketing/shared/schemas/event-cancellation";
import type { Event } from "@ticketing/shared/schemas/events";
import { useId, useState } from "react";
import { useDataProvider, useLocaleState, useNotify, useRecordContext, useRefresh, useTranslate } from "react-admin";
import { submissionErrorsOf } from "../../apiErrors.ts";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { CountTiles } from "../../widgets/CountTiles.tsx";
import { LoadState } from "../../widgets/LoadState.tsx";
import { useConfirm } from "../../widgets/PromptDialog.tsx";

/** How often the progress is asked again while refunds are under way. */
export const PROGRESS_REFRESH_MS = 2_000;

const STATE_COLORS = {
  pending: "default",
  refunding: "info",
  refunded: "success",
  failed: "error",
  by_hand: "warning",
  refunded_by_hand: "success",
} as const satisfies Record<CancellationBasketState, string>;

const TILES = ["ordersToRefund", "refunded", "toRefundByHand", "refundedByHand", "failed", "mailsQueued"] as const;

const cancellationKey = (eventId: number) => ["events", "cancellation", eventId];

/** The orders the organiser still has to act on or wait for: every one but those refunded. */
export const needsAttention = (basket: CancellationBasket) =>
  basket.state !== "refunded" && basket.state !== "refunded_by_hand";

/**
 * The event's cancellation (what it would do, or its progress), asked again every few seconds while its refunds are
 * under way; the status input reads it too (a cancelled event may only be archived).
 */
export function useEventCancellation(eventId: number | null) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  return useQuery<EventCancellation>({
    queryKey: cancellationKey(eventId ?? 0),
    queryFn: async () => (await dataProvider.getEventCancellation(eventId as number)).data,
    enabled: eventId !== null,
    refetchInterval: (query) =>
      query.state.data?.isCancelled && !query.state.data.isDone ? PROGRESS_REFRESH_MS : false,
  });
}

export const CancellationPanel = () => {
  const record = useRecordContext<Event>();
  const translate = useTranslate();
  const headingId = useId();
  const { data, error, isPending } = useEventCancellation(record ? Number(record.id) : null);
  if (!record) return null;
  return (
    // One column no wider than the page: the orders' table scrolls within it rather than widening the page. On a
    // phone the status form's toolbar is fixed at the bottom: room below, so that it never covers the buttons.
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", p: 2, pb: { xs: 10, sm: 2 }, maxWidth: 1000 }}
    >
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        {translate(data?.isCancelled ? "admin.cancellation.cancelledTitle" : "admin.cancellation.title")}
      </Typography>
      {isPending || error || !data ? (
        <LoadState error={error} />
      ) : data.isCancelled ? (
        <CancellationProgress cancellation={data} />
      ) : (
        <CancelForm event={record} preview={data} />
      )}
    </Box>
  );
};

/** The messages and the button; the confirmation says what the cancellation will do. */
const CancelForm = ({ event, preview }: { event: Event; preview: EventCancellation }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const { confirm, dialog } = useConfirm();
  const [message, setMessage] = useState("");
  const [messageFr, setMessageFr] = useState("");
  const [isTouched, setTouched] = useState(false);
  const [isSending, setSending] = useState(false);
  const isCancellable = event.status === "public" || event.status === "closed";
  const missing = { message: message.trim() === "", messageFr: messageFr.trim() === "" };

  const cancel = async () => {
    setTouched(true);
    if (missing.message || missing.messageFr) return;
    const isSure = await confirm({
      title: "admin.cancellation.confirmTitle",
      message: "admin.cancellation.confirmMessage",
      messageArgs: { refunded: preview.ordersToRefund, byHand: preview.toRefundByHand, event: event.name },
      confirmLabel: "admin.cancellation.confirm",
      isDangerous: true,
    });
    if (!isSure) return;
    setSending(true);
    try {
      const { data } = await dataProvider.cancelEvent(event.id, {
        message: message.trim(),
        messageFr: messageFr.trim(),
      });
      queryClient.setQueryData(cancellationKey(Number(event.id)), data);
      notify("admin.cancellation.done", { type: "success" });
      refresh();
    } catch (error) {
      notify(translate(submissionErrorsOf(error).message), { type: "error" });
    } finally {
      setSending(false);
    }
  };

  if (!isCancellable)
    return <Typography color="text.secondary">{translate("admin.cancellation.notCancellable")}</Typography>;
  return (
    <Stack spacing={2}>
      <Typography>{translate("admin.cancellation.explain")}</Typography>
      <Typography variant="body2" color="text.secondary">
        {translate("admin.cancellation.preview", {
          refunded: preview.ordersToRefund,
          byHand: preview.toRefundByHand,
        })}
      </Typography>
      <MessageField language="en" value={message} onChange={setMessage} isMissing={isTouched && missing.message} />
      <MessageField
        language="fr"
        value={messageFr}
        onChange={setMessageFr}
        isMissing={isTouched && missing.messageFr}
      />
      <Box>
        <Button variant="contained" color="error" onClick={cancel} loading={isSending}>
          {translate("admin.cancellation.button")}
        </Button>
      </Box>
      {dialog}
    </Stack>
  );
};

/** Where the refunds stand, and what is left to do. */
const CancellationProgress = ({ cancellation }: { cancellation: EventCancellation }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [isBusy, setBusy] = useState(false);
  const language = locale === "fr" ? "fr" : "en";
  const done = cancellation.refunded + cancellation.refundedByHand;
  const total = cancellation.ordersToRefund + cancellation.toRefundByHand;
  const left = cancellation.baskets.filter(needsAttention);
  const act = async (call: () => Promise<{ data: EventCancellation }>, success: string) => {
    setBusy(true);
    try {
      const { data } = await call();
      queryClient.setQueryData(cancellationKey(cancellation.eventId), data);
      notify(success, { type: "success" });
    } catch (error) {
      notify(translate(submissionErrorsOf(error).message), { type: "error" });
    } finally {
      setBusy(false);
    }
  };
  const date = cancellation.cancelledAt
    ? new Intl.DateTimeFormat(intlLocaleOf(locale), { dateStyle: "long", timeStyle: "short" }).format(
        new Date(cancellation.cancelledAt),
      )
    : "";
  return (
    <Stack spacing={2}>
      <Alert severity="error">
        <AlertTitle>{translate("admin.cancellation.cancelledOn", { date })}</AlertTitle>
        <Typography variant="body2" sx={{ whiteSpace: "pre-line" }} lang={language}>
          {language === "fr" ? cancellation.messageFr : cancellation.message}
        </Typography>
      </Alert>
      <Box>
        <Typography variant="body2" id="cancellation-progress-label" gutterBottom>
          {translate("admin.cancellation.progress", { done, total })}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={total ? (100 * done) / total : 100}
          aria-labelledby="cancellation-progress-label"
        />
      </Box>
      <CountTiles keys={TILES} counts={cancellation} label={(key) => translate(`admin.cancellation.counts.${key}`)} />
      {cancellation.failed > 0 && (
        <Box>
          <Button
            variant="contained"
            onClick={() =>
              act(() => dataProvider.retryCancellationRefunds(cancellation.eventId), "admin.cancellation.retried")
            }
            disabled={isBusy}
          >
            {translate("admin.cancellation.retry")}
          </Button>
        </Box>
      )}
      {left.length > 0 && (
        // Positioned: the hidden column name stays inside the scrolling box instead of widening the page.
        <TableContainer sx={{ overflowX: "auto", position: "relative" }}>
          <Table size="small" aria-label={translate("admin.cancellation.leftTable")}>
            <TableHead>
              <TableRow>
                <TableCell>{translate("admin.cancellation.columns.reference")}</TableCell>
                <TableCell>{translate("admin.cancellation.columns.buyer")}</TableCell>
                <TableCell align="right">{translate("admin.cancellation.columns.amount")}</TableCell>
                <TableCell>{translate("admin.cancellation.columns.state")}</TableCell>
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    {translate("admin.cancellation.columns.actions")}
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {left.map((basket) => (
                <TableRow key={basket.basketId}>
                  <TableCell sx={{ fontFamily: "monospace" }}>{basket.reference}</TableCell>
                  <TableCell>
                    {basket.buyer || "—"}
                    {basket.email && (
                      <Typography variant="body2" color="text.secondary">
                        {basket.email}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    {formatMoney(basket.amount, language)}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={STATE_COLORS[basket.state]}
                      label={translate(`admin.cancellation.states.${basket.state}`)}
                    />
                    {basket.error && (
                      <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
                        {basket.error}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    {(basket.state === "by_hand" || basket.state === "failed") && (
                      <Button
                        size="small"
                        onClick={() =>
                          act(
                            () => dataProvider.markRefundedByHand(cancellation.eventId, basket.basketId),
                            "admin.cancellation.markedByHand",
                          )
                        }
                        disabled={isBusy}
                      >
                        {translate("admin.cancellation.markByHand")}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Stack>
  );
};

/** The organiser's message to buyers in one language, required, as long as the API takes it. */
function MessageField(props: {
  language: Language;
  value: string;
  onChange: (value: string) => void;
  isMissing: boolean;
}) {
  const translate = useTranslate();
  return (
    <TextField
      label={translate(props.language === "en" ? "admin.cancellation.message" : "admin.cancellation.messageFr")}
      value={props.value}
      onChange={(change) => props.onChange(change.target.value)}
      required
      multiline
      minRows={3}
      fullWidth
      slotProps={{ htmlInput: { lang: props.language, maxLength: MAX_CANCELLATION_MESSAGE_LENGTH } }}
      error={props.isMissing}
      helperText={props.isMissing ? translate("ra.validation.required") : " "}
    />
  );
}

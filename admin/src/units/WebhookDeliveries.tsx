// An endpoint's delivery log, newest first: the event, its state, its attempts, the last answer, the next attempt,
// and "Send again" (the same event, the same Webhook-Id, queued now). Each row opens onto its attempts.
import {
  Alert,
  Button,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import type { Unit } from "@ticketing/shared/schemas/units";
import type { Webhook, WebhookDelivery } from "@ticketing/shared/schemas/webhooks";
import { Fragment, useCallback, useEffect, useState } from "react";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../dataProvider.ts";
import { useFormatMoment } from "./WebhooksPanel.tsx";

export const WebhookDeliveries = ({
  unitId,
  webhook,
  version,
  onSentAgain,
}: {
  unitId: Unit["id"];
  webhook: Webhook;
  /** Changes when an action may have queued a delivery: the log is read again. */
  version: number;
  onSentAgain: () => Promise<void>;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const format = useFormatMoment();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [rows, setRows] = useState<WebhookDelivery[] | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const load = useCallback(async () => {
    try {
      const path = `/${webhook.id}/deliveries?range=${encodeURIComponent("[0,49]")}`;
      setRows((await dataProvider.unitWebhooks<WebhookDelivery[]>(unitId, path)).data);
    } catch (error) {
      notify(error instanceof Error ? error.message : "admin.errors.unexpected", { type: "error" });
    }
  }, [dataProvider, unitId, webhook.id, notify]);
  useEffect(() => {
    void version;
    void load();
  }, [load, version]);
  const sendAgain = async (delivery: WebhookDelivery) => {
    try {
      await dataProvider.unitWebhooks(unitId, `/${webhook.id}/deliveries/${delivery.id}/resend`, {
        method: "POST",
        body: {},
      });
      notify("admin.units.webhooks.sentAgain", { type: "success" });
      await onSentAgain();
      await load();
    } catch (error) {
      notify(error instanceof Error ? error.message : "admin.errors.unexpected", { type: "error" });
    }
  };
  if (!rows) return null;
  const code = (delivery: WebhookDelivery) =>
    delivery.lastStatusCode ?? (delivery.attempts > 0 ? translate("admin.units.webhooks.noAnswer") : "—");
  return (
    <>
      <Typography component="h4" variant="subtitle2" sx={{ mt: 1 }}>
        {translate("admin.units.webhooks.log")}{" "}
        <Button size="small" onClick={() => void load()}>
          {translate("admin.units.webhooks.refresh")}
        </Button>
      </Typography>
      {rows.length === 0 ? (
        <Alert severity="info">{translate("admin.units.webhooks.noDeliveries")}</Alert>
      ) : (
        <TableContainer sx={{ overflowX: "auto" }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate("admin.units.webhooks.event")}</TableCell>
                <TableCell>{translate("admin.units.webhooks.status")}</TableCell>
                <TableCell align="right">{translate("admin.units.webhooks.attempts")}</TableCell>
                <TableCell>{translate("admin.units.webhooks.lastCode")}</TableCell>
                <TableCell>{translate("admin.units.webhooks.nextAttempt")}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((delivery) => (
                <Fragment key={delivery.id}>
                  <TableRow hover>
                    <TableCell>
                      <Button
                        size="small"
                        aria-expanded={openId === delivery.id}
                        onClick={() => setOpenId((open) => (open === delivery.id ? null : delivery.id))}
                        sx={{ textTransform: "none", p: 0, minWidth: 0, textAlign: "left" }}
                      >
                        {translate(`admin.units.webhooks.eventTypes.${delivery.eventType}`)}
                      </Button>
                      <Typography variant="caption" display="block" color="text.secondary">
                        {format(delivery.createdAt)}
                      </Typography>
                    </TableCell>
                    <TableCell>{translate(`admin.units.webhooks.deliveryStatus.${delivery.status}`)}</TableCell>
                    <TableCell align="right">{delivery.attempts}</TableCell>
                    <TableCell>{code(delivery)}</TableCell>
                    <TableCell>{delivery.nextAttemptAt ? format(delivery.nextAttemptAt) : "—"}</TableCell>
                    <TableCell>
                      <Button size="small" disabled={!webhook.enabled} onClick={() => void sendAgain(delivery)}>
                        {translate("admin.units.webhooks.sendAgain")}
                      </Button>
                    </TableCell>
                  </TableRow>
                  {openId === delivery.id && (
                    <TableRow>
                      <TableCell colSpan={6}>
                        <Typography variant="caption" component="p" sx={{ fontFamily: "monospace" }}>
                          Webhook-Id: {delivery.messageId}
                        </Typography>
                        <Typography
                          component="pre"
                          variant="caption"
                          sx={{ whiteSpace: "pre-wrap", wordBreak: "break-all", m: 0 }}
                        >
                          {delivery.payload}
                        </Typography>
                        <ul>
                          {delivery.attemptLog.map((attempt) => (
                            <li key={attempt.id}>
                              {format(attempt.attemptedAt)} — {attempt.statusCode ?? attempt.error} (
                              {attempt.durationMs} ms)
                            </li>
                          ))}
                        </ul>
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  );
};

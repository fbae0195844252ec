// The door's answer, big enough to read at arm's length on a phone: a green, amber or red panel whose words and icon
// say the same as its colour, and the figures of the evening.
import CancelIcon from "@mui/icons-material/Cancel";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import QrCodeScannerIcon from "@mui/icons-material/QrCodeScanner";
import WarningAmberIcon from "@mui/icons-material/WarningAmber";
import { Box, Chip, Typography } from "@mui/material";
import type { CheckInCounts, CheckInResult } from "@ticketing/shared/schemas/check-ins";
import type { ReactElement } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { TO_THE_MINUTE } from "../../fields/dateTime.ts";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { CHECK_IN_TONES, type CheckInTone, headlineOf, OFFLINE_TONES, offlineHeadlineOf } from "./checkInResult.ts";
import type { OfflineVerdict } from "./offlineDoor.ts";

const ICONS: Record<CheckInTone, ReactElement> = {
  success: <CheckCircleIcon fontSize="inherit" />,
  warning: <WarningAmberIcon fontSize="inherit" />,
  error: <CancelIcon fontSize="inherit" />,
};

/**
 * A scan's answer and the moment it came: two scans with the same answer are still told apart. Either the API's
 * answer (`result`), or the door's own decision while offline (`offline`, docs/decisions/0048).
 */
export type Scan =
  | { result: CheckInResult; offline?: undefined; at: Date }
  | { result?: undefined; offline: OfflineVerdict; at: Date };

const TicketLines = ({ ticket }: { ticket: NonNullable<CheckInResult["ticket"]> }) => {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="h6" component="p">
        {translate("admin.checkIn.ticket", { title: ticket.title ?? "", holder: ticket.holderName ?? "" })}
      </Typography>
      {ticket.reference && (
        <Typography component="p">{translate("admin.checkIn.reference", { reference: ticket.reference })}</Typography>
      )}
      {ticket.testing && (
        <Chip label={translate("admin.checkIn.testTicket")} sx={{ mt: 1, bgcolor: "common.white", color: "black" }} />
      )}
    </>
  );
};

/**
 * The last scan's answer (a live region, so that a screen reader says it too), or, before the first, what to do.
 * `preview` tells which door refused a ticket of the other mode.
 */
export const CheckInPanel = ({ scan, preview }: { scan: Scan | null; preview: boolean }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const intlLocale = intlLocaleOf(locale);
  const formatTime = (iso: string) => new Intl.DateTimeFormat(intlLocale, TO_THE_MINUTE).format(new Date(iso));
  const tone = scan?.result
    ? CHECK_IN_TONES[scan.result.outcome]
    : scan?.offline
      ? OFFLINE_TONES[scan.offline.kind]
      : null;
  const headline = scan?.result
    ? headlineOf(scan.result, preview, formatTime)
    : scan?.offline
      ? offlineHeadlineOf(scan.offline, formatTime)
      : null;
  return (
    <Box
      role="status"
      aria-label={translate("admin.checkIn.result")}
      data-tone={tone ?? "ready"}
      data-offline={scan?.offline ? "true" : undefined}
      sx={{
        p: { xs: 2, sm: 3 },
        borderRadius: 2,
        textAlign: "center",
        bgcolor: tone ? `${tone}.main` : "action.hover",
        color: tone ? `${tone}.contrastText` : "text.secondary",
        minHeight: 160,
        display: "flex",
        flexDirection: "column",
        alignItems: "center",
        justifyContent: "center",
        gap: 0.5,
      }}
    >
      <Box aria-hidden sx={{ fontSize: 56, lineHeight: 1 }}>
        {tone ? ICONS[tone] : <QrCodeScannerIcon fontSize="inherit" />}
      </Box>
      {scan && headline ? (
        <>
          <Typography variant="h3" component="p" sx={{ fontWeight: 700, fontSize: { xs: "2.25rem", sm: "3rem" } }}>
            {translate(headline.key)}
          </Typography>
          {headline.detail && (
            <Typography variant="h5" component="p" sx={{ fontWeight: 600, overflowWrap: "anywhere" }}>
              {translate(headline.detail.key, headline.detail.options)}
            </Typography>
          )}
          {scan.result?.ticket && <TicketLines ticket={scan.result.ticket} />}
          <Typography variant="caption" component="p" sx={{ opacity: 0.9 }}>
            {translate("admin.checkIn.scannedAt", {
              time: new Intl.DateTimeFormat(intlLocale, { timeStyle: "medium" }).format(scan.at),
            })}
          </Typography>
        </>
      ) : (
        <Typography variant="h6" component="p">
          {translate("admin.checkIn.ready")}
        </Typography>
      )}
    </Box>
  );
};

/** "3 checked in of 10 sold", the door's running figures; nothing until they are known. */
export const CheckInCountsLine = ({ counts }: { counts: CheckInCounts | undefined }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const number = new Intl.NumberFormat(intlLocaleOf(locale));
  return (
    <Box component="section" aria-label={translate("admin.checkIn.countsLabel")}>
      <Typography variant="h5" component="p" sx={{ fontVariantNumeric: "tabular-nums", fontWeight: 600 }}>
        {counts
          ? translate("admin.checkIn.counts", {
              checkedIn: number.format(counts.checkedIn),
              sold: number.format(counts.sold),
            })
          : "\u00a0"}
      </Typography>
    </Box>
  );
};

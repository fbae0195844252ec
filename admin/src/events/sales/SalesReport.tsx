// The frame of the event's figures pages (dashboard, stocks table): the figures of the address's event, in real or
// testing (preview) mode, loaded from the API, refreshed on demand, and shown under the sales toolbar.
import { Alert, Box, CircularProgress, Button as MuiButton, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { HttpError, Title, useDataProvider, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { usePreviewFlag } from "./previewFlag.ts";
import { PreviewSwitch, SalesToolbar, useSalesEvent } from "./salesEvent.tsx";
import type { SalesPage } from "./salesPages.ts";

type ReportMethod = "getEventDashboard" | "getEventStocks";
type ReportOf<M extends ReportMethod> = Awaited<ReturnType<TicketingDataProvider[M]>>["data"];

/**
 * The figures of an event in one mode, through react-admin's query client: the app bar's refresh loads them again
 * (keeping the figures shown until the new ones come), and another event or mode starts from nothing, so real and
 * testing figures are never shown under the other's switch.
 */
export function useEventReport<M extends ReportMethod>(method: M, eventId: number, preview: boolean) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const { data, error, isFetching, refetch } = useQuery({
    queryKey: ["events", method, eventId, preview],
    queryFn: async () => {
      const load = dataProvider[method] as (eventId: number, preview: boolean) => Promise<{ data: ReportOf<M> }>;
      return (await load(eventId, preview)).data;
    },
    enabled: Number.isInteger(eventId) && eventId > 0,
    retry: false,
  });
  return { data, error: error ?? undefined, isFetching, refetch: () => void refetch() };
}

/** What a page or a chart shows instead of figures when there are none (an i18n key). */
export const EmptyFigures = ({ text }: { text: string }) => {
  const translate = useTranslate();
  return (
    <Typography color="text.secondary" sx={{ my: 2 }}>
      {translate(text)}
    </Typography>
  );
};

const isNotFound = (error: unknown) => error instanceof HttpError && error.status === 404;

/**
 * One of the event's figures pages: its title with the event's name, the toolbar (back to the event, the other
 * sales pages with the flag, `actions`; the app bar's refresh loads the figures again), the preview switch, then
 * `children` with the figures once loaded; a spinner before, the not-found message for an event the user may not
 * see (404), an error with a retry otherwise.
 */
export function SalesReport<M extends ReportMethod>({
  page,
  method,
  titleKey,
  actions,
  children,
}: {
  page: SalesPage;
  method: M;
  /** an i18n key taking the event's `name` */
  titleKey: string;
  actions?: (data: ReportOf<M>, preview: boolean) => ReactNode;
  children: (data: ReportOf<M>, preview: boolean) => ReactNode;
}) {
  const translate = useTranslate();
  const { eventId, name, error: eventError } = useSalesEvent();
  const [preview] = usePreviewFlag();
  const isValid = Number.isInteger(eventId) && eventId > 0;
  const { data, error, isFetching, refetch } = useEventReport(method, eventId, preview);
  const notFound = !isValid || isNotFound(eventError) || isNotFound(error);

  return (
    <Box sx={{ pb: 4 }}>
      <Title title={translate(titleKey, { name })} />
      <SalesToolbar current={page} preview={preview}>
        {data && actions?.(data, preview)}
      </SalesToolbar>
      {notFound ? (
        <Typography role="alert" sx={{ m: 2 }}>
          {translate("admin.salesPages.notFound")}
        </Typography>
      ) : (
        <>
          <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", gap: 2, mb: 2 }}>
            <PreviewSwitch />
            {preview && (
              <Alert severity="warning" sx={{ py: 0 }}>
                {translate("admin.salesPages.previewOn")}
              </Alert>
            )}
            {isFetching && data && <CircularProgress size={20} aria-label={translate("ra.page.loading")} />}
          </Box>
          {error !== undefined && !data ? (
            <Alert
              severity="error"
              action={
                <MuiButton color="inherit" size="small" onClick={refetch}>
                  {translate("admin.salesPages.retry")}
                </MuiButton>
              }
            >
              {translate("admin.salesPages.loadFailed")}
            </Alert>
          ) : data ? (
            children(data, preview)
          ) : (
            <CircularProgress size={24} sx={{ m: 2 }} aria-label={translate("ra.page.loading")} />
          )}
        </>
      )}
    </Box>
  );
}

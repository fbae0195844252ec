// An event's waiting list in the back office (issue 31): the list now (its settings and counts, asked again every few
// seconds while shown), its entries, and the form that switches it on or changes it. No list yet (the API's 404): it
// is off, and the form switches it on. `testing`: the preview's own list (counts and entries; the settings are one).
import { Box, Typography } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { WaitingList, WaitingListSettings } from "@ticketing/shared/schemas/waiting-list";
import { useMemo } from "react";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { LoadState } from "../../widgets/LoadState.tsx";
import { WaitingListEntries } from "./WaitingListEntries.tsx";
import { WaitingListForm } from "./WaitingListForm.tsx";
import { WaitingListLive } from "./WaitingListLive.tsx";
import { formValuesOf, LIST_REFRESH_MS } from "./waitingList.ts";

const listKey = (eventId: number, testing: boolean) => ["events", "waitingList", eventId, testing];

/** The list of `eventId` (its preview's counts with `testing`), null when it has none. */
function useWaitingList(eventId: number, testing: boolean) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  return useQuery<WaitingList | null>({
    queryKey: listKey(eventId, testing),
    queryFn: async () => (await dataProvider.getWaitingList(eventId, testing)).data,
    refetchInterval: LIST_REFRESH_MS,
    retry: false,
  });
}

/** `readOnly`: the user may only see the event (no form, no buttons). */
export const WaitingListScreen = ({
  eventId,
  testing,
  readOnly,
}: {
  eventId: number;
  testing: boolean;
  readOnly: boolean;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const queryClient = useQueryClient();
  const { data: list, error, isPending } = useWaitingList(eventId, testing);
  const isNew = !list;
  // The form starts again only when the settings change, not on every refresh of the counts.
  const valuesJson = JSON.stringify(formValuesOf(list ?? null));
  const values = useMemo(() => JSON.parse(valuesJson) as ReturnType<typeof formValuesOf>, [valuesJson]);
  const refreshList = () => void queryClient.invalidateQueries({ queryKey: ["events", "waitingList", eventId] });

  const save = async (settings: WaitingListSettings) => {
    const { data } = await dataProvider.setWaitingList(eventId, settings);
    // The settings are the same in both modes; the counts of the mode shown come with the next read.
    queryClient.setQueryData(listKey(eventId, testing), (shown: WaitingList | null | undefined) =>
      shown ? { ...shown, ...settings } : data,
    );
    refreshList();
    notify(isNew ? "admin.waitingList.done.switchedOn" : "admin.waitingList.done.saved", { type: "success" });
  };

  if (isPending || error) return <LoadState error={error} />;
  return (
    // One column no wider than the page: the entries' table scrolls within it rather than widening the page.
    <Box sx={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2, p: 2, maxWidth: 1200, minWidth: 0 }}>
      {list ? (
        <>
          <WaitingListLive list={list} />
          <WaitingListEntries eventId={eventId} testing={testing} readOnly={readOnly} onChanged={refreshList} />
        </>
      ) : (
        readOnly && <Typography>{translate("admin.waitingList.off")}</Typography>
      )}
      {!readOnly && (
        <WaitingListForm
          // A list switched on starts its form again from what the API keeps.
          key={String(isNew)}
          values={values}
          isNew={isNew}
          onSave={save}
        />
      )}
    </Box>
  );
};

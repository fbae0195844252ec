// What the event's sales lists (baskets, invoices) share: the event they list, and a toolbar back to it and on to
// the other list.
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import type { Event } from "@ticketing/shared/schemas/events";
import type { ReactElement } from "react";
import { Button, LinkBase, TopToolbar, useBasename, useCreatePath, useGetOne, useParams } from "react-admin";

/**
 * The event of the page's address: its id, its name once loaded, its edit page's path, and the back office's
 * basename (a list's rowClick path is the browser's, outside react-admin's basename).
 */
export function useSalesEvent() {
  const { id } = useParams<{ id?: string }>();
  const eventId = Number(id);
  const createPath = useCreatePath();
  const basename = useBasename();
  const { data: event } = useGetOne<Pick<Event, "id" | "name">>(
    "events",
    { id: eventId },
    { enabled: Number.isInteger(eventId) },
  );
  return {
    eventId,
    name: event?.name ?? "",
    eventPath: createPath({ resource: "events", id: eventId, type: "edit" }),
    basename,
  };
}

/** Back to the event, and on to its other sales list (`path` under the event's page). */
export const SalesToolbar = ({
  eventPath,
  other,
}: {
  eventPath: string;
  other: { path: string; label: string; icon: ReactElement };
}) => (
  <TopToolbar>
    <Button component={LinkBase} label="admin.baskets.backToEvent" to={eventPath}>
      <ArrowBackIcon />
    </Button>
    <Button component={LinkBase} label={other.label} to={`${eventPath}/${other.path}`}>
      {other.icon}
    </Button>
  </TopToolbar>
);

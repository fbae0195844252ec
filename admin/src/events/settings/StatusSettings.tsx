import { allowedStatuses } from "@ticketing/shared/event-status";
import type { Event } from "@ticketing/shared/schemas/events";
import { required, SelectInput, SimpleForm, useRecordContext } from "react-admin";
import { CancellationPanel, useEventCancellation } from "../cancellation/CancellationPanel.tsx";
import { SaveToolbar } from "../EventSubPages.tsx";
import { eventStatusChoices } from "../eventStatus.ts";
import { ModerationPanel } from "../moderation/ModerationPanel.tsx";
import { SettingsFrame } from "./SettingsFrame.tsx";

/**
 * docs/specification.md §4: the select offers only the allowed transitions (the API answers 409 otherwise); a locked
 * event's status still moves, so it is never read-only.
 */
const StatusInput = () => {
  const record = useRecordContext<Event>();
  // A cancelled event stays closed for good; it may only be archived (docs/decisions/0047).
  const { data: cancellation } = useEventCancellation(record ? Number(record.id) : null);
  const allowed = record
    ? allowedStatuses(record.status, record.moderationStatus).filter(
        (status) => !cancellation?.isCancelled || status === record.status || status === "archived",
      )
    : [];
  const choices = eventStatusChoices.filter((choice) => allowed.includes(choice.id));
  return <SelectInput source="status" choices={choices} validate={required()} />;
};

/**
 * docs/specification.md §2.2 `settings/status`: the moderation (asked for, approved, changes requested), the status,
 * and cancelling the event for good (docs/decisions/0047).
 */
export const StatusSettings = () => (
  <SettingsFrame page="status">
    <ModerationPanel />
    <SimpleForm toolbar={<SaveToolbar />}>
      <StatusInput />
    </SimpleForm>
    <CancellationPanel />
  </SettingsFrame>
);

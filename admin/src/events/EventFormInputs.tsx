import { DateTimeInput, ReferenceInput, required, SelectInput, TextInput } from "react-admin";
import { validateFrontendPath } from "./frontendPath.ts";

/** The units the user belongs to, first one first (the create form defaults to it). */
export const UNIT_LIST_PARAMS = { sort: { field: "id", order: "ASC" as const }, pagination: { page: 1, perPage: 100 } };

/** Form-level check, so that the message shows beside the end date. */
export function validateEventDates(values: Record<string, unknown>): Record<string, string> {
  const { startDate, endDate } = values;
  if (!startDate || !endDate) return {};
  return new Date(endDate as string) < new Date(startDate as string)
    ? { endDate: "admin.validation.endBeforeStart" }
    : {};
}

/** The inputs shared by the create and edit forms (labels come from resources.events.fields.*). */
export const EventFormInputs = () => (
  <>
    <ReferenceInput
      source="unitId"
      reference="units"
      sort={UNIT_LIST_PARAMS.sort}
      perPage={UNIT_LIST_PARAMS.pagination.perPage}
    >
      <SelectInput optionText="name" validate={required()} />
    </ReferenceInput>
    <TextInput source="name" validate={required()} />
    <TextInput source="frontendTitle" validate={required()} />
    <TextInput source="frontendPath" validate={[required(), validateFrontendPath]} />
    <DateTimeInput source="startDate" validate={required()} />
    <DateTimeInput source="endDate" validate={required()} />
  </>
);

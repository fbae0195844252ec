import { ReferenceInput, required, SelectInput, TextInput } from "react-admin";
import { BilingualTextInput } from "../fields/BilingualTextInput.tsx";
import { DateTimeInput } from "../fields/DateTimeInput.tsx";
import { validateFrontendPath } from "./frontendPath.ts";
import { endNotBefore } from "./settings/settingsPages.ts";

/** The units the user belongs to, first one first (the create form defaults to it). */
export const UNIT_LIST_PARAMS = { sort: { field: "id", order: "ASC" as const }, pagination: { page: 1, perPage: 100 } };

/** The event's end must not be before its start. */
export const validateEndAfterStart = endNotBefore("startDate");

/**
 * The inputs shared by the create and edit forms (labels come from resources.events.fields.*);
 * `readOnly` when the event is locked for the user (docs/specification.md §4).
 */
export const EventFormInputs = ({ readOnly = false }: { readOnly?: boolean }) => (
  <>
    <ReferenceInput
      source="unitId"
      reference="units"
      sort={UNIT_LIST_PARAMS.sort}
      perPage={UNIT_LIST_PARAMS.pagination.perPage}
    >
      <SelectInput optionText="name" validate={required()} readOnly={readOnly} />
    </ReferenceInput>
    <TextInput source="name" validate={required()} readOnly={readOnly} />
    <BilingualTextInput source="frontendTitle" validate={required()} readOnly={readOnly} />
    <TextInput source="frontendPath" validate={[required(), validateFrontendPath]} readOnly={readOnly} />
    <DateTimeInput source="startDate" validate={required()} readOnly={readOnly} />
    <DateTimeInput source="endDate" validate={[required(), validateEndAfterStart]} readOnly={readOnly} />
  </>
);

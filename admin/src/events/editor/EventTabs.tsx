import { Alert, Link, Tab, Tabs } from "@mui/material";
import { MAX_TICKETS_PER_BUYER } from "@ticketing/shared/constants";
import { useCallback } from "react";
import {
  LinkBase,
  ReferenceInput,
  required,
  SelectInput,
  TextInput,
  useCreatePath,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { useSearchParams } from "react-router";
import { BilingualTextInput } from "../../fields/BilingualTextInput.tsx";
import { NumberInput } from "../../widgets/NumberInput.tsx";
import { UNIT_LIST_PARAMS } from "../EventFormInputs.tsx";
import { validateFrontendPath } from "../frontendPath.ts";

export const EDIT_TABS = ["display", "properties", "configuration", "graph"] as const;
export type EditTab = (typeof EDIT_TABS)[number];

/** The tab lives in the query (`?tab=configuration`): links and reloads keep it. */
export function useEditTab(): [EditTab, (tab: EditTab) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get("tab");
  const tab = (EDIT_TABS as readonly string[]).includes(value ?? "") ? (value as EditTab) : "display";
  const setTab = useCallback(
    (next: EditTab) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next === "display") updated.delete("tab");
          else updated.set("tab", next);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [tab, setTab];
}

/** docs/specification.md §2.2: event-edit's tabs Display, Properties, Configuration, and the graph view. */
export const EditTabs = ({ value, onChange }: { value: EditTab; onChange: (tab: EditTab) => void }) => {
  const translate = useTranslate();
  return (
    <Tabs
      value={value}
      onChange={(_event, tab: EditTab) => onChange(tab)}
      variant="scrollable"
      aria-label={translate("admin.editor.tabs.label")}
      sx={{ px: 2, borderBottom: 1, borderColor: "divider" }}
    >
      {EDIT_TABS.map((tab) => (
        <Tab key={tab} value={tab} label={translate(`admin.editor.tabs.${tab}`)} />
      ))}
    </Tabs>
  );
};

/** What the ticket office shows of the event. */
export const DisplayInputs = ({ readOnly }: { readOnly: boolean }) => (
  <>
    {/* What buyers read is written in English and French (docs/decisions/0043); the private name and path are ours. */}
    <BilingualTextInput source="frontendTitle" validate={required()} readOnly={readOnly} />
    <TextInput source="name" validate={required()} readOnly={readOnly} />
    <TextInput source="frontendPath" validate={[required(), validateFrontendPath]} readOnly={readOnly} />
    <BilingualTextInput source="welcomeText" multiline minRows={3} readOnly={readOnly} />
    <BilingualTextInput source="locationText" readOnly={readOnly} />
  </>
);

/** The way to the event's settings pages: the status, dates, sign-in and payment are set there, not here. */
const SettingsNote = () => {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Alert severity="info" sx={{ mb: 2, width: "100%" }}>
      {translate("admin.settings.propertiesNote")}{" "}
      <Link component={LinkBase} to={`${createPath({ resource: "events", id: record.id, type: "edit" })}/settings`}>
        {translate("admin.settings.open")}
      </Link>
    </Alert>
  );
};

/**
 * What stays the editor's (the unit it belongs to, how many tickets one basket and one buyer may hold); the status,
 * dates, sign-in and payment have their own settings pages (docs/specification.md §2.2).
 */
export const PropertiesInputs = ({ readOnly }: { readOnly: boolean }) => {
  const translate = useTranslate();
  return (
    <>
      <SettingsNote />
      <ReferenceInput
        source="unitId"
        reference="units"
        sort={UNIT_LIST_PARAMS.sort}
        perPage={UNIT_LIST_PARAMS.pagination.perPage}
      >
        <SelectInput optionText="name" validate={required()} readOnly />
      </ReferenceInput>
      <NumberInput source="maxItemsPerBasket" min={1} max={500} step={1} readOnly={readOnly} />
      {/* Empty: no cap (null). Counted over all of a buyer's baskets on the event (docs/decisions/0036). */}
      <NumberInput
        source="maxTicketsPerBuyer"
        min={1}
        max={MAX_TICKETS_PER_BUYER}
        step={1}
        readOnly={readOnly}
        helperText={translate("admin.caps.maxTicketsPerBuyerHelp")}
      />
    </>
  );
};

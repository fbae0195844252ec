import { Tab, Tabs } from "@mui/material";
import { ACCESS_METHODS } from "@ticketing/shared/constants";
import type { PointOfSale } from "@ticketing/shared/schemas/catalogue";
import { useCallback, useEffect, useState } from "react";
import {
  BooleanInput,
  CheckboxGroupInput,
  DateTimeInput,
  type Identifier,
  NumberInput,
  ReferenceInput,
  required,
  SelectInput,
  TextInput,
  useDataProvider,
  useTranslate,
} from "react-admin";
import { useSearchParams } from "react-router";
import { localDateTimeToIso, UNIT_LIST_PARAMS, validateEndAfterStart } from "../EventFormInputs.tsx";
import { validateFrontendPath } from "../frontendPath.ts";
import { OnlinePaymentInput } from "../OnlinePaymentInput.tsx";
import { RowsPanel } from "./RowsPanel.tsx";

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

/** SPEC 2.2: event-edit's tabs Display, Properties, Configuration, and the graph view. */
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
    <TextInput source="frontendTitle" validate={required()} readOnly={readOnly} />
    <TextInput source="name" validate={required()} readOnly={readOnly} />
    <TextInput source="frontendPath" validate={[required(), validateFrontendPath]} readOnly={readOnly} />
    <TextInput source="welcomeText" multiline minRows={3} fullWidth readOnly={readOnly} />
    <TextInput source="locationText" readOnly={readOnly} />
  </>
);

const accessMethodChoices = ACCESS_METHODS.map((method) => ({ id: method, name: `admin.accessMethods.${method}` }));

/** SPEC 5: choose at least one authentication method. */
export const validateAccessMethods = (value: unknown) =>
  Array.isArray(value) && value.length > 0 ? undefined : "admin.validation.accessMethods";

const dateInput = (source: string, readOnly: boolean, validate?: Parameters<typeof DateTimeInput>[0]["validate"]) => (
  <DateTimeInput source={source} parse={localDateTimeToIso} validate={validate} readOnly={readOnly} />
);

/** Dates, unit, access methods, point of sale (the status sits below both tabs, beside Save). */
export const PropertiesInputs = ({ readOnly }: { readOnly: boolean }) => (
  <>
    <ReferenceInput
      source="unitId"
      reference="units"
      sort={UNIT_LIST_PARAMS.sort}
      perPage={UNIT_LIST_PARAMS.pagination.perPage}
    >
      <SelectInput optionText="name" validate={required()} readOnly />
    </ReferenceInput>
    {dateInput("startDate", readOnly, required())}
    {dateInput("endDate", readOnly, [required(), validateEndAfterStart])}
    {dateInput("registrationsStartDate", readOnly)}
    {dateInput("registrationsEndDate", readOnly)}
    {dateInput("paymentsStartDate", readOnly)}
    {dateInput("paymentsEndDate", readOnly)}
    <NumberInput source="reservationMinutes" min={1} max={1440} step={1} readOnly={readOnly} />
    <NumberInput source="paymentTermMinutes" min={5} max={10080} step={1} readOnly={readOnly} />
    <NumberInput source="maxItemsPerBasket" min={1} max={500} step={1} readOnly={readOnly} />
    <CheckboxGroupInput
      source="accessMethods"
      choices={accessMethodChoices}
      validate={validateAccessMethods}
      readOnly={readOnly}
      disabled={readOnly}
    />
    <BooleanInput source="isPointOfSaleEnabled" readOnly={readOnly} disabled={readOnly} />
    <OnlinePaymentInput readOnly={readOnly} />
  </>
);

/** The event's points of sale (title, description, location), offered by the point-of-sale payment. */
export const PointsOfSalePanel = ({ eventId, readOnly }: { eventId: Identifier; readOnly: boolean }) => {
  const dataProvider = useDataProvider();
  const [rows, setRows] = useState<PointOfSale[]>([]);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let isCurrent = true;
    void version;
    dataProvider
      .getList<PointOfSale>("points-of-sale", {
        filter: { eventId },
        pagination: { page: 1, perPage: 1000 },
        sort: { field: "id", order: "ASC" },
      })
      .then(
        ({ data }) => isCurrent && setRows(data),
        () => undefined,
      );
    return () => {
      isCurrent = false;
    };
  }, [dataProvider, eventId, version]);
  return (
    <div style={{ padding: 16 }}>
      <RowsPanel
        title="admin.editor.pointsOfSale.title"
        resource="points-of-sale"
        eventId={eventId}
        rows={rows}
        fields={[
          { source: "title", label: "admin.editor.pointsOfSale.name", isRequired: true },
          { source: "description", label: "admin.editor.pointsOfSale.description", isMultiline: true },
          { source: "location", label: "admin.editor.pointsOfSale.location" },
        ]}
        describe={(row) => row.title}
        readOnly={readOnly}
        emptyText="admin.editor.pointsOfSale.empty"
        addLabel="admin.editor.pointsOfSale.add"
        onChanged={() => setVersion((current) => current + 1)}
      />
    </div>
  );
};

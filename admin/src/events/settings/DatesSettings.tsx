import { MAX_HOLD_RENEWALS } from "@ticketing/shared/constants";
import { required, SimpleForm, useTranslate, type Validator } from "react-admin";
import { DateTimeInput } from "../../fields/DateTimeInput.tsx";
import { NumberInput } from "../../widgets/NumberInput.tsx";
import { useIsLocked } from "../EventLock.tsx";
import { SaveToolbar } from "../EventSubPages.tsx";
import { SettingsFrame } from "./SettingsFrame.tsx";
import { endNotBefore } from "./settingsPages.ts";

const DatesForm = () => {
  const isLocked = useIsLocked();
  const translate = useTranslate();
  const dateInput = (source: string, validate?: Validator | Validator[]) => (
    <DateTimeInput source={source} validate={validate} readOnly={isLocked} />
  );
  return (
    // Locked: nothing here may change, so there is nothing to save.
    <SimpleForm toolbar={isLocked ? false : <SaveToolbar />}>
      {dateInput("startDate", required())}
      {dateInput("endDate", [required(), endNotBefore("startDate")])}
      {dateInput("registrationsStartDate")}
      {dateInput("registrationsEndDate", endNotBefore("registrationsStartDate"))}
      {dateInput("paymentsStartDate")}
      {dateInput("paymentsEndDate", endNotBefore("paymentsStartDate"))}
      <NumberInput source="reservationMinutes" min={1} max={1440} step={1} readOnly={isLocked} />
      <NumberInput
        source="maxHoldRenewals"
        min={0}
        max={MAX_HOLD_RENEWALS}
        step={1}
        validate={required()}
        readOnly={isLocked}
        helperText={translate("admin.caps.maxHoldRenewalsHelp")}
      />
    </SimpleForm>
  );
};

/**
 * docs/specification.md §2.2 `settings/dates`: when the event takes place, the registrations and payments windows
 * (empty: open from/until any time), how long an article stays held in a basket, and how many times a buyer may
 * hold a basket again.
 */
export const DatesSettings = () => (
  <SettingsFrame page="dates">
    <DatesForm />
  </SettingsFrame>
);

import type { Event } from "@ticketing/shared/schemas/events";
import { BooleanInput, SimpleForm, useRecordContext } from "react-admin";
import { NumberInput } from "../../widgets/NumberInput.tsx";
import { useIsLocked } from "../EventLock.tsx";
import { SaveToolbar } from "../EventSubPages.tsx";
import { OnlinePaymentInput } from "../OnlinePaymentInput.tsx";
import { PointsOfSalePanel } from "./PointsOfSalePanel.tsx";
import { SettingsFrame } from "./SettingsFrame.tsx";

const PaymentForm = () => {
  const isLocked = useIsLocked();
  const record = useRecordContext<Event>();
  return (
    <>
      <SimpleForm toolbar={isLocked ? false : <SaveToolbar />}>
        <OnlinePaymentInput readOnly={isLocked} />
        <NumberInput source="paymentTermMinutes" min={5} max={10080} step={1} readOnly={isLocked} />
        <BooleanInput source="isPointOfSaleEnabled" readOnly={isLocked} disabled={isLocked} />
      </SimpleForm>
      {/* Their own rows, each saved on its own: not fields of the event's form. */}
      {record && <PointsOfSalePanel eventId={record.id} readOnly={isLocked} />}
    </>
  );
};

/**
 * docs/specification.md §2.2 `settings/payment`: the online payment module, the time a buyer has to pay online, the
 * point-of-sale payment and its points of sale (docs/design.md §4 "Payments").
 */
export const PaymentSettings = () => (
  <SettingsFrame page="payment">
    <PaymentForm />
  </SettingsFrame>
);

import { Alert, Box, Link } from "@mui/material";
import { ONLINE_PAYMENT_MODULES } from "@ticketing/shared/constants";
import type { Event } from "@ticketing/shared/schemas/events";
import {
  FormDataConsumer,
  LinkBase,
  required,
  SelectInput,
  useCreatePath,
  useRecordContext,
  useTranslate,
} from "react-admin";

/** The event's online payment modules (docs/design.md §4 "Payments"). */
export const onlinePaymentChoices = ONLINE_PAYMENT_MODULES.map((module) => ({
  id: module,
  name: `admin.events.onlinePayment.${module}`,
}));

/**
 * What the event's online payment goes through, and whether its unit's Stripe account is set (the API refuses
 * Stripe otherwise, with a message on this field), with the way to the unit's settings where an owner sets it.
 */
export const OnlinePaymentInput = ({ readOnly }: { readOnly: boolean }) => {
  const record = useRecordContext<Event>();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const unitLink = record && (
    <Link component={LinkBase} to={createPath({ resource: "units", id: record.unitId, type: "edit" })}>
      {translate("admin.events.onlinePayment.unitLink")}
    </Link>
  );
  return (
    <Box sx={{ width: "100%", mb: 2 }}>
      <SelectInput
        source="onlinePaymentModule"
        choices={onlinePaymentChoices}
        validate={required()}
        readOnly={readOnly}
        helperText="admin.events.onlinePayment.previewNote"
      />
      {record && (
        <FormDataConsumer<Event>>
          {({ formData }) =>
            formData.onlinePaymentModule === "stripe" && !record.isStripeConfigured ? (
              <Alert severity="warning">
                {translate("admin.events.onlinePayment.stripeMissing")} {unitLink}
              </Alert>
            ) : (
              <Alert severity={record.isStripeConfigured ? "success" : "info"}>
                {translate(
                  record.isStripeConfigured
                    ? "admin.events.onlinePayment.stripeConfigured"
                    : "admin.events.onlinePayment.stripeNotConfigured",
                )}{" "}
                {unitLink}
              </Alert>
            )
          }
        </FormDataConsumer>
      )}
    </Box>
  );
};

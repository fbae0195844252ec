// The list's settings: switching it on, or changing whether it takes new names, how offers are made, how long an
// offer holds its tickets (hours and minutes) and whether an entry may be offered less than it asked for.
import { Box, Card, CardContent, Typography } from "@mui/material";
import { MAX_WAITING_LIST_OFFER_MINUTES } from "@ticketing/shared/constants";
import type { WaitingListSettings } from "@ticketing/shared/schemas/waiting-list";
import { useId } from "react";
import { BooleanInput, Form, RadioButtonGroupInput, required, useTranslate } from "react-admin";
import { SubmitButton } from "../../auth/SubmitButton.tsx";
import { useApiForm } from "../../auth/useApiForm.ts";
import { NumberInput } from "../../widgets/NumberInput.tsx";
import { isOfferTimeValid, settingsOfForm, type WaitingListFormValues } from "./waitingList.ts";

const MODE_CHOICES = [
  { id: "automatic", name: "admin.waitingList.fields.automatic" },
  { id: "manual", name: "admin.waitingList.fields.manual" },
];

/** The offer time out of bounds: said under the hours, the first of its two fields. */
const validateOfferTime = (values: Record<string, unknown>) =>
  isOfferTimeValid(values as unknown as WaitingListFormValues)
    ? {}
    : { offerHours: "admin.waitingList.fields.offerTimeRange" };

/** `values` the form starts from (the list's, or a new list's); `isNew` whether saving switches the list on. */
export const WaitingListForm = ({
  values,
  isNew,
  onSave,
}: {
  values: WaitingListFormValues;
  isNew: boolean;
  onSave: (settings: WaitingListSettings) => Promise<void>;
}) => {
  const translate = useTranslate();
  const headingId = useId();
  const offerTimeId = useId();
  const { isSubmitting, onSubmit } = useApiForm((form: WaitingListFormValues) => onSave(settingsOfForm(form)));
  const help = (key: string) => translate(`admin.waitingList.fields.${key}Help`);
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2" gutterBottom>
          {translate(isNew ? "admin.waitingList.form.newHeading" : "admin.waitingList.form.heading")}
        </Typography>
        {isNew && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate("admin.waitingList.form.intro")}
          </Typography>
        )}
        <Form record={values} onSubmit={onSubmit} validate={validateOfferTime}>
          <Box sx={{ display: "flex", flexDirection: "column", gap: 1, maxWidth: 520 }}>
            <BooleanInput
              source="accepting"
              label="admin.waitingList.fields.accepting"
              helperText={help("accepting")}
            />
            <RadioButtonGroupInput
              source="mode"
              label="admin.waitingList.fields.mode"
              choices={MODE_CHOICES}
              row={false}
              validate={required()}
              helperText={false}
            />
            <Box component="fieldset" aria-describedby={offerTimeId} sx={{ border: 0, p: 0, m: 0 }}>
              <Typography component="legend" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {translate("admin.waitingList.fields.offerTime")}
              </Typography>
              <Box sx={{ display: "flex", gap: 2 }}>
                <NumberInput
                  source="offerHours"
                  label="admin.waitingList.fields.offerHours"
                  min={0}
                  max={Math.floor(MAX_WAITING_LIST_OFFER_MINUTES / 60)}
                />
                <NumberInput source="offerMinutes" label="admin.waitingList.fields.offerMinutes" min={0} max={59} />
              </Box>
              <Typography id={offerTimeId} variant="caption" color="text.secondary">
                {help("offerTime")}
              </Typography>
            </Box>
            <BooleanInput
              source="partialOffers"
              label="admin.waitingList.fields.partialOffers"
              helperText={help("partialOffers")}
            />
            <Box>
              <SubmitButton
                label={isNew ? "admin.waitingList.form.switchOn" : "admin.waitingList.form.save"}
                isSubmitting={isSubmitting}
              />
            </Box>
          </Box>
        </Form>
      </CardContent>
    </Card>
  );
};

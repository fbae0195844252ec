// The room's settings: switching it on, or changing its opening (before it only), its rate and its admission time.
import { Box, Card, CardContent, Typography } from "@mui/material";
import { MAX_WAITING_ROOM_ADMISSION_MINUTES, MAX_WAITING_ROOM_RATE_PER_MINUTE } from "@ticketing/shared/constants";
import type { WaitingRoomSettings } from "@ticketing/shared/schemas/waiting-room";
import { useId } from "react";
import { Form, required, useTranslate } from "react-admin";
import { SubmitButton } from "../../auth/SubmitButton.tsx";
import { useApiForm } from "../../auth/useApiForm.ts";
import { DateTimeInput } from "../../fields/DateTimeInput.tsx";
import { NumberInput } from "../../widgets/NumberInput.tsx";

/**
 * `settings` the form starts from (the room's, or a new room's); `isNew` whether saving switches the room on;
 * `isOpeningFixed` once the opening has passed (the API moves it only before).
 */
export const WaitingRoomForm = ({
  settings,
  isNew,
  isOpeningFixed,
  onSave,
}: {
  settings: WaitingRoomSettings;
  isNew: boolean;
  isOpeningFixed: boolean;
  onSave: (settings: WaitingRoomSettings) => Promise<void>;
}) => {
  const translate = useTranslate();
  const headingId = useId();
  const { isSubmitting, onSubmit } = useApiForm(onSave);
  const help = (key: string) => translate(`admin.waitingRoom.fields.${key}Help`);
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2" gutterBottom>
          {translate(isNew ? "admin.waitingRoom.form.newHeading" : "admin.waitingRoom.form.heading")}
        </Typography>
        {isNew && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate("admin.waitingRoom.form.intro")}
          </Typography>
        )}
        <Form record={settings} onSubmit={onSubmit}>
          <Box sx={{ display: "flex", flexDirection: "column", gap: 2, maxWidth: 420 }}>
            <DateTimeInput
              source="opensAt"
              label="admin.waitingRoom.fields.opensAt"
              validate={required()}
              readOnly={isOpeningFixed}
              helperText={help(isOpeningFixed ? "opensAtFixed" : "opensAt")}
            />
            <NumberInput
              source="ratePerMinute"
              label="admin.waitingRoom.fields.ratePerMinute"
              min={1}
              max={MAX_WAITING_ROOM_RATE_PER_MINUTE}
              validate={required()}
              helperText={help("ratePerMinute")}
            />
            <NumberInput
              source="admissionMinutes"
              label="admin.waitingRoom.fields.admissionMinutes"
              min={1}
              max={MAX_WAITING_ROOM_ADMISSION_MINUTES}
              validate={required()}
              helperText={help("admissionMinutes")}
            />
            <Box>
              <SubmitButton
                label={isNew ? "admin.waitingRoom.form.switchOn" : "admin.waitingRoom.form.save"}
                isSubmitting={isSubmitting}
              />
            </Box>
          </Box>
        </Form>
      </CardContent>
    </Card>
  );
};

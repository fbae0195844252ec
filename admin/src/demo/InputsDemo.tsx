import { Box, Button, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { Title, useTranslate } from "react-admin";
import { ALERT_STATES, AlertBanner } from "../widgets/AlertBanner.tsx";
import { NumberField, type NumberFieldProps } from "../widgets/NumberInput.tsx";
import { TextInput, type TextInputProps } from "../widgets/TextInput.tsx";
import { DemoSection } from "./DemoSection.tsx";
import { SuperuserOnly } from "./SuperuserOnly.tsx";

/** A widget and what it last saved, so the demo shows what the widget hands on. */
const Saved = ({ value }: { value: string }) => {
  const translate = useTranslate();
  return (
    <Typography variant="caption" color="text.secondary">
      {translate("admin.demo.saved", { value: value === "" ? translate("admin.demo.empty") : value })}
    </Typography>
  );
};

const DemoNumber = ({
  initial = null,
  ...props
}: Omit<NumberFieldProps, "value" | "onChange"> & { initial?: number | null }) => {
  const [value, setValue] = useState<number | null>(initial);
  return (
    <Stack sx={{ width: 260 }}>
      <NumberField {...props} value={value} onChange={setValue} />
      <Saved value={value === null ? "" : String(value)} />
    </Stack>
  );
};

const DemoText = ({ initial = "", ...props }: Omit<TextInputProps, "value" | "onSave"> & { initial?: string }) => {
  const [value, setValue] = useState(initial);
  return (
    <Stack sx={{ width: 260 }}>
      <TextInput {...props} value={value} onSave={setValue} />
      <Saved value={props.isPassword ? "•".repeat(value.length) : value} />
    </Stack>
  );
};

const startsWithCapital = (value: string) => (/^\p{Lu}/u.test(value) ? [] : ["admin.demo.text.capital"]);

/** docs/specification.md §2.1: /demo/inputs, the alerts and the inputs in each of their states. */
const InputsDemoPage = () => {
  const translate = useTranslate();
  // A new key mounts the alerts again, closed ones included.
  const [alertsRound, setAlertsRound] = useState(0);
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={translate("admin.demo.inputsTitle")} />
      <Typography variant="h5" component="h1">
        {translate("admin.demo.inputsTitle")}
      </Typography>
      <DemoSection title="admin.demo.alerts">
        <Stack key={alertsRound} spacing={1} sx={{ width: "100%" }}>
          {ALERT_STATES.map((state) => (
            <AlertBanner key={state} state={state} isAutoClosing={false}>
              {translate(`admin.demo.alertText.${state}`)}
            </AlertBanner>
          ))}
          <AlertBanner state="information">{translate("admin.demo.autoClosing")}</AlertBanner>
        </Stack>
        <Box>
          <Button onClick={() => setAlertsRound(alertsRound + 1)}>{translate("admin.demo.alertsAgain")}</Button>
        </Box>
      </DemoSection>
      <DemoSection title="admin.demo.numbers">
        <DemoNumber label="admin.demo.number.whole" initial={5} min={0} max={10} isValidationEnabled />
        <DemoNumber label="admin.demo.number.decimal" initial={45} hasDecimals min={0} isValidationEnabled />
        <DemoNumber label="admin.demo.number.required" isRequired />
        <DemoNumber label="admin.demo.number.validated" initial={20} step={5} isValidationEnabled />
        <DemoNumber label="admin.demo.number.readOnly" initial={7} readOnly />
        <DemoNumber label="admin.demo.number.disabled" initial={3} disabled />
      </DemoSection>
      <DemoSection title="admin.demo.texts">
        <DemoText label="admin.demo.text.plain" initial="Lausanne" />
        <DemoText label="admin.demo.text.maxLength" maxLength={20} />
        <DemoText label="admin.demo.text.validated" initial="Festival" validate={startsWithCapital} />
        <DemoText label="admin.demo.text.required" initial="Required" isRequired />
        <DemoText label="admin.demo.text.password" isPassword isClearable={false} />
        <DemoText label="admin.demo.text.readOnly" initial="Fixed" readOnly />
      </DemoSection>
    </Stack>
  );
};

export const InputsDemo = () => (
  <SuperuserOnly>
    <InputsDemoPage />
  </SuperuserOnly>
);

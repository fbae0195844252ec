// An organiser text in English and French side by side (docs/decisions/0043): the English in its own field
// (`title`), the French beside it (`titleFr`), two columns on a wide screen and stacked on a phone. The French field
// says when it is missing, since a French buyer then reads the English.
import { Box, TextField, type TextFieldProps } from "@mui/material";
import { missingFrench } from "@ticketing/shared/content-language";
import type { ReactNode } from "react";
import {
  FormDataConsumer,
  TextInput,
  type TextInputProps,
  useResourceContext,
  useTranslate,
  useTranslateLabel,
} from "react-admin";

/** The two fields of a text: beside each other from 600 px (MUI's `sm`), one above the other below. */
export const BilingualRow = ({ children }: { children: ReactNode }) => (
  <Box
    sx={{
      display: "grid",
      gridTemplateColumns: { xs: "minmax(0, 1fr)", sm: "repeat(2, minmax(0, 1fr))" },
      columnGap: 2,
      rowGap: { xs: 2, sm: 0 },
      width: "100%",
      alignItems: "start",
    }}
  >
    {children}
  </Box>
);

/** "Public name (French)" / "Public name (français)": the French field's label from the English one's. */
export function useFrenchLabel() {
  const translate = useTranslate();
  return (label: string) => translate("admin.bilingual.inFrench", { label });
}

/** The note under the French field while the English is written and the French is not; none otherwise. */
export function useMissingFrenchNote() {
  const translate = useTranslate();
  return (english: unknown, french: unknown) =>
    missingFrench({ text: english, textFr: french }, ["text"]).length > 0
      ? translate("admin.bilingual.missingFrench")
      : undefined;
}

/**
 * A react-admin text input and its French (`source` + "Fr"). `validate` and `helperText` are the English field's:
 * the French may stay empty.
 */
export const BilingualTextInput = ({
  source,
  label,
  validate,
  helperText,
  ...shared
}: Omit<TextInputProps, "fullWidth">) => {
  const resource = useResourceContext();
  const translateLabel = useTranslateLabel();
  const frenchLabel = useFrenchLabel();
  const note = useMissingFrenchNote();
  const englishLabel = translateLabel({ source, resource, label }) as string;
  const frenchSource = `${source}Fr`;
  return (
    <BilingualRow>
      <TextInput source={source} label={label} validate={validate} helperText={helperText} fullWidth {...shared} />
      <FormDataConsumer>
        {({ formData }) => (
          <TextInput
            source={frenchSource}
            label={frenchLabel(englishLabel)}
            // A note kept as the text itself (not a key): react-admin would translate a key a second time.
            helperText={note(formData?.[source], formData?.[frenchSource]) ?? false}
            fullWidth
            {...shared}
          />
        )}
      </FormDataConsumer>
    </BilingualRow>
  );
};

type FieldProps = Omit<TextFieldProps, "value" | "onChange" | "label"> & { label: string };

/**
 * The same pair for the editor's own forms, whose values live in component state: `value`/`onChange` the English,
 * `valueFr`/`onChangeFr` the French. `required`, `error` and `helperText` are the English field's.
 */
export const BilingualTextField = ({
  label,
  value,
  valueFr,
  onChange,
  onChangeFr,
  required,
  error,
  helperText,
  ...shared
}: FieldProps & {
  value: string;
  valueFr: string;
  onChange: (value: string) => void;
  onChangeFr: (value: string) => void;
}) => {
  const frenchLabel = useFrenchLabel();
  const note = useMissingFrenchNote();
  return (
    <BilingualRow>
      <TextField
        label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required={required}
        error={error}
        helperText={helperText}
        fullWidth
        {...shared}
      />
      <TextField
        label={frenchLabel(label)}
        value={valueFr}
        onChange={(event) => onChangeFr(event.target.value)}
        helperText={note(value, valueFr)}
        fullWidth
        {...shared}
      />
    </BilingualRow>
  );
};

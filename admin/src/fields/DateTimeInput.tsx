import { AdapterDateFns } from "@mui/x-date-pickers/AdapterDateFns";
import { DateTimePicker } from "@mui/x-date-pickers/DateTimePicker";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { enUS as pickersEn, frFR as pickersFr } from "@mui/x-date-pickers/locales";
import type { Language } from "@ticketing/shared/constants";
import { enUS, frCH } from "date-fns/locale";
import type { ReactNode, Ref } from "react";
import { FieldTitle, InputHelperText, useInput, useLocaleState, useResourceContext, type Validator } from "react-admin";
import { languageOf } from "../i18nProvider.ts";
import { isoToPickerValue, PICKER_FORMATS, pickerValueToIso, validateDateTime } from "./dateTime.ts";

const DATE_FNS_LOCALES = { en: enUS, fr: frCH } as const satisfies Record<Language, unknown>;

const PICKER_TEXTS = {
  en: pickersEn.components.MuiLocalizationProvider.defaultProps.localeText,
  fr: pickersFr.components.MuiLocalizationProvider.defaultProps.localeText,
} as const satisfies Record<Language, unknown>;

/** A date-time picker outside react-admin's forms (a dialog's own state): the value is ISO 8601 UTC or null. */
interface DateTimePickerFieldProps {
  value: unknown;
  /** ISO 8601 UTC, null when cleared, an invalid Date while half typed (validateDateTime refuses it) */
  onChange: (value: string | Date | null) => void;
  label: ReactNode;
  readOnly?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  id?: string;
  name?: string;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  className?: string;
}

/**
 * A date and time in the interface language's format (24.12.2026 18:00 in French, 12/24/2026 06:00 PM in
 * English), typed or picked, in the browser's time zone; the value, like the wire's, is ISO 8601 in UTC
 * (docs/api.md). The browser's own `datetime-local` field follows the browser's language, not the back office's.
 */
export const DateTimePickerField = ({
  value,
  onChange,
  label,
  readOnly = false,
  disabled = false,
  error = false,
  helperText,
  id,
  name,
  onBlur,
  inputRef,
  className,
}: DateTimePickerFieldProps) => {
  const [locale] = useLocaleState();
  const language = languageOf(locale);
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={DATE_FNS_LOCALES[language]}
      localeText={PICKER_TEXTS[language]}
    >
      <DateTimePicker
        className={className}
        label={label}
        value={isoToPickerValue(value)}
        onChange={(date) => onChange(pickerValueToIso(date))}
        format={PICKER_FORMATS[language]}
        ampm={language === "en"}
        readOnly={readOnly}
        disabled={disabled}
        inputRef={inputRef}
        name={name}
        slotProps={{
          textField: {
            id,
            onBlur,
            // react-admin's theme gives its own inputs these; the pickers' field does not read it.
            variant: "filled",
            size: "small",
            margin: "dense",
            fullWidth: true,
            error,
            helperText,
          },
        }}
      />
    </LocalizationProvider>
  );
};

interface DateTimeInputProps {
  source: string;
  /** Defaults to resources.<resource>.fields.<source>, like react-admin's inputs. */
  label?: string;
  validate?: Validator | Validator[];
  readOnly?: boolean;
  disabled?: boolean;
  helperText?: ReactNode;
  defaultValue?: string | null;
}

/**
 * DateTimePickerField as a react-admin input: use it in forms instead of react-admin's DateTimeInput. A date
 * still being typed holds the form back (admin.dateTimeInput.invalid).
 */
export const DateTimeInput = ({
  source,
  label,
  validate = [],
  readOnly = false,
  disabled = false,
  helperText,
  defaultValue,
}: DateTimeInputProps) => {
  const resource = useResourceContext();
  const {
    field,
    fieldState: { error, invalid },
    id,
    isRequired,
  } = useInput({
    source,
    defaultValue,
    validate: [validateDateTime, ...(Array.isArray(validate) ? validate : [validate])],
  });
  return (
    <DateTimePickerField
      className={`ra-input ra-input-${source}`}
      label={<FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />}
      value={field.value}
      onChange={field.onChange}
      readOnly={readOnly}
      disabled={disabled}
      inputRef={field.ref}
      name={field.name}
      id={id}
      onBlur={field.onBlur}
      error={invalid}
      helperText={
        helperText !== undefined || invalid ? <InputHelperText error={error?.message} helperText={helperText} /> : null
      }
    />
  );
};

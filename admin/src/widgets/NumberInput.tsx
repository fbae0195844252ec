import AddIcon from "@mui/icons-material/Add";
import RemoveIcon from "@mui/icons-material/Remove";
import { IconButton, InputAdornment, TextField } from "@mui/material";
import { type ReactNode, useEffect, useState } from "react";
import {
  type InputProps,
  useInput,
  useResourceContext,
  useTranslate,
  useTranslateLabel,
  ValidationError,
} from "react-admin";
import { numberOnBlur, parseNumberText, stepValue } from "./numberInput.ts";

const textOf = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));

export interface NumberFieldProps {
  /** a translation key, or text already translated */
  label: string;
  value: number | null;
  /** the value checked and clamped, on blur or a step */
  onChange: (value: number | null) => void;
  /** each valid number while it is typed, before clamping (a form's Save must know the field changed) */
  onInput?: (value: number) => void;
  /** with decimals: `.` or `,` and at most 2 of them; otherwise digits only */
  hasDecimals?: boolean;
  min?: number;
  max?: number;
  /** what the step buttons add or take away (default 1) */
  step?: number;
  isRequired?: boolean;
  /** docs/specification.md §5: the text is checked on blur when the field is required or this is set */
  isValidationEnabled?: boolean;
  readOnly?: boolean;
  disabled?: boolean;
  /** an error from outside (a form's validation or the API's), shown when the field has none of its own */
  outsideError?: ReactNode;
  helperText?: string;
  name?: string;
  onBlur?: () => void;
}

/** docs/specification.md §2.5 / §5: the number input: typed text checked and clamped on blur, step buttons. */
export const NumberField = ({
  label,
  value,
  onChange,
  onInput,
  hasDecimals = false,
  min,
  max,
  step = 1,
  isRequired = false,
  isValidationEnabled = false,
  readOnly = false,
  disabled = false,
  outsideError,
  helperText,
  name,
  onBlur,
}: NumberFieldProps) => {
  const translate = useTranslate();
  const [text, setText] = useState(textOf(value));
  const [error, setError] = useState<string | null>(null);
  // A value changed from outside (a step, a form reset) shows; the text being typed is left alone meanwhile.
  useEffect(
    () => setText((typed) => (parseNumberText(typed, hasDecimals) === value ? typed : textOf(value))),
    [value, hasDecimals],
  );
  const commit = (next: number | null) => {
    setText(textOf(next));
    setError(null);
    if (next !== value) onChange(next);
  };
  const blur = () => {
    const result = numberOnBlur(text, value, { hasDecimals, min, max, isRequired, isValidationEnabled });
    if (result.error) setError(result.error);
    else commit(result.value);
    onBlur?.();
  };
  const stepBy = (direction: 1 | -1) => commit(stepValue(value, { step, direction, min, max }));
  const isLocked = readOnly || disabled;
  const shownError = error ? translate(error) : outsideError;
  return (
    <TextField
      label={translate(label, { _: label })}
      name={name}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        const typed = parseNumberText(event.target.value, hasDecimals);
        if (typed !== null) onInput?.(typed);
      }}
      onBlur={blur}
      required={isRequired}
      disabled={disabled}
      error={Boolean(shownError)}
      helperText={shownError || helperText}
      slotProps={{
        htmlInput: { inputMode: hasDecimals ? "decimal" : "numeric", readOnly },
        input: {
          endAdornment: isLocked ? undefined : (
            <InputAdornment position="end">
              <IconButton
                size="small"
                aria-label={translate("admin.inputs.number.decrease", { step })}
                onClick={() => stepBy(-1)}
                disabled={min !== undefined && value !== null && value <= min}
              >
                <RemoveIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={translate("admin.inputs.number.increase", { step })}
                onClick={() => stepBy(1)}
                disabled={max !== undefined && value !== null && value >= max}
              >
                <AddIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
};

type NumberInputProps = Pick<InputProps, "source" | "validate" | "readOnly" | "disabled"> &
  Pick<NumberFieldProps, "hasDecimals" | "min" | "max" | "step" | "isRequired" | "helperText"> & { label?: string };

/** The number input in a react-admin form (`source`), for the back office's number fields. */
export const NumberInput = ({ source, validate, label, readOnly, disabled, ...rules }: NumberInputProps) => {
  const { field, fieldState, isRequired } = useInput({ source, validate });
  const translateLabel = useTranslateLabel();
  const resource = useResourceContext();
  const message = fieldState.error?.message;
  return (
    <NumberField
      {...rules}
      label={String(translateLabel({ label, source, resource }))}
      name={field.name}
      value={field.value ?? null}
      onChange={field.onChange}
      onInput={field.onChange}
      onBlur={field.onBlur}
      // In a form the typed text is always checked on blur: a person sees at once that it was not taken.
      isValidationEnabled
      isRequired={rules.isRequired ?? isRequired}
      readOnly={readOnly}
      disabled={disabled}
      outsideError={message ? <ValidationError error={message} /> : undefined}
    />
  );
};

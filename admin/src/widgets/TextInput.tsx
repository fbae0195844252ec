import ClearIcon from "@mui/icons-material/Clear";
import VisibilityIcon from "@mui/icons-material/Visibility";
import VisibilityOffIcon from "@mui/icons-material/VisibilityOff";
import { IconButton, InputAdornment, Stack, TextField } from "@mui/material";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslate } from "react-admin";
import { isChanged, type TextValidator, textErrors } from "./textInput.ts";

export interface TextInputProps {
  /** a translation key, or text already translated */
  label: string;
  /** the saved value: what Esc goes back to, and what the hints compare with */
  value: string;
  /** called on blur (Enter blurs) with a changed, valid value */
  onSave: (value: string) => void;
  maxLength?: number;
  /** docs/specification.md §5: the custom validator, returning the messages of what is wrong */
  validate?: TextValidator;
  isRequired?: boolean;
  isPassword?: boolean;
  readOnly?: boolean;
  /** a clear button while there is text (default on) */
  isClearable?: boolean;
}

/**
 * docs/specification.md §2.5 / §5: the text input that saves itself: Enter saves (by blurring), Esc restores the value
 * it started with, and while the text differs from that the hints say so.
 */
export const TextInput = ({
  label,
  value: initialValue,
  onSave,
  maxLength,
  validate,
  isRequired = false,
  isPassword = false,
  readOnly = false,
  isClearable = true,
}: TextInputProps) => {
  const translate = useTranslate();
  const [value, setValue] = useState(initialValue);
  const [errors, setErrors] = useState<string[]>([]);
  const [isMasked, setMasked] = useState(true);
  const input = useRef<HTMLInputElement>(null);
  // A new saved value (the parent's, after a save) is the new starting point.
  useEffect(() => setValue(initialValue), [initialValue]);
  const keyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter") input.current?.blur();
    if (event.key === "Escape") {
      setValue(initialValue);
      setErrors([]);
    }
  };
  const blur = () => {
    if (readOnly || !isChanged(value, initialValue)) return;
    const found = textErrors(value, { isRequired, validate });
    setErrors(found);
    if (found.length === 0) onSave(value);
  };
  // The hints while the value differs (from the value last given by the parent, i.e. saved).
  const hasHints = !readOnly && isChanged(value, initialValue);
  const help = (hasHints || maxLength !== undefined) && (
    <Stack component="span" direction="row" spacing={2}>
      {hasHints && <span>{translate("admin.inputs.text.saveHint")}</span>}
      {hasHints && <span>{translate("admin.inputs.text.cancelHint")}</span>}
      {maxLength !== undefined && (
        <span>{translate("admin.inputs.text.length", { length: value.length, maxLength })}</span>
      )}
    </Stack>
  );
  const adornments = (
    <>
      {isClearable && !readOnly && value !== "" && (
        <IconButton
          size="small"
          aria-label={translate("admin.inputs.text.clear")}
          // The input keeps the focus: a blur would save the text before it is cleared; Enter or Esc decide next.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            setValue("");
            input.current?.focus();
          }}
        >
          <ClearIcon fontSize="small" />
        </IconButton>
      )}
      {isPassword && (
        <IconButton
          size="small"
          aria-label={translate(isMasked ? "admin.inputs.text.showPassword" : "admin.inputs.text.hidePassword")}
          onClick={() => setMasked(!isMasked)}
        >
          {isMasked ? <VisibilityIcon fontSize="small" /> : <VisibilityOffIcon fontSize="small" />}
        </IconButton>
      )}
    </>
  );
  return (
    <TextField
      label={translate(label, { _: label })}
      inputRef={input}
      value={value}
      type={isPassword && isMasked ? "password" : "text"}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={keyDown}
      onBlur={blur}
      required={isRequired}
      error={errors.length > 0}
      helperText={errors.length > 0 ? errors.map((error) => translate(error, { _: error })).join(" ") : help}
      slotProps={{
        htmlInput: { maxLength, readOnly },
        input: { endAdornment: <InputAdornment position="end">{adornments}</InputAdornment> },
      }}
    />
  );
};

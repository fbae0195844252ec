// docs/specification.md §5: the text input's rules, apart from the screen.

/** A custom validator: the messages (translation keys or text) of what is wrong, none when the value is fine. */
export type TextValidator = (value: string) => string[];

/**
 * What is wrong with `value`: a required field left empty, or the custom validator's messages. (maxLength is the
 * field's own attribute: more cannot be typed.)
 */
export function textErrors(
  value: string,
  { isRequired = false, validate }: { isRequired?: boolean; validate?: TextValidator },
): string[] {
  if (value === "") return isRequired ? ["ra.validation.required"] : [];
  return validate?.(value) ?? [];
}

/**
 * docs/specification.md §5: the enter/tab and esc hints show while the value differs from the one the field started
 * with.
 */
export const isChanged = (value: string, initialValue: string): boolean => value !== initialValue;

// docs/specification.md §5 / §9: the number input's rules, apart from the screen.

/** docs/specification.md §9: at most this many decimals. */
const NUMBER_DECIMALS_LIMIT = 2;

const DIGITS = /^\d+$/;
const DECIMAL = new RegExp(`^\\d+(?:[.,]\\d{1,${NUMBER_DECIMALS_LIMIT}})?$`);

/** Only digits; with decimals, digits with one `.` or `,` and at most 2 decimals. */
export const isValidNumberText = (text: string, hasDecimals: boolean): boolean =>
  (hasDecimals ? DECIMAL : DIGITS).test(text.trim());

/** The number of valid text (either decimal separator), otherwise null. */
export const parseNumberText = (text: string, hasDecimals: boolean): number | null =>
  isValidNumberText(text, hasDecimals) ? Number(text.trim().replace(",", ".")) : null;

export const clamp = (value: number, min?: number, max?: number): number =>
  Math.min(max ?? Number.POSITIVE_INFINITY, Math.max(min ?? Number.NEGATIVE_INFINITY, value));

/**
 * A step button's result: `step` added (direction 1) or taken away (-1), rounded to the decimals allowed (0.1 + 0.2
 * is 0.3 here), then clamped. An empty field starts from min, or 0.
 */
export function stepValue(
  value: number | null,
  { step = 1, direction, min, max }: { step?: number; direction: 1 | -1; min?: number; max?: number },
): number {
  const stepped = (value ?? min ?? 0) + direction * step;
  const factor = 10 ** NUMBER_DECIMALS_LIMIT;
  return clamp(Math.round(stepped * factor) / factor, min, max);
}

/**
 * What blurring the field shows and keeps: a required empty field and invalid text say so (when validation is on;
 * otherwise the field goes back to its last value); valid text is clamped.
 */
export function numberOnBlur(
  text: string,
  current: number | null,
  rules: { hasDecimals: boolean; min?: number; max?: number; isRequired: boolean; isValidationEnabled: boolean },
): { value: number | null; error: string | null } {
  const isValidating = rules.isRequired || rules.isValidationEnabled;
  if (text.trim() === "") {
    return { value: null, error: rules.isRequired ? "ra.validation.required" : null };
  }
  const parsed = parseNumberText(text, rules.hasDecimals);
  if (parsed === null) return { value: current, error: isValidating ? "admin.inputs.number.invalid" : null };
  return { value: clamp(parsed, rules.min, rules.max), error: null };
}

// SPEC 5 / SPEC 9: a password has at least 12 characters and one special character; its
// confirmation must match. The API checks the same rules; these give the answer before the round trip.
export const MIN_PASSWORD_LENGTH = 12;

/** Anything but an ASCII letter or digit counts as special (spaces and accented letters included). */
const SPECIAL_CHARACTER = /[^A-Za-z0-9]/;

/** react-admin validator: an i18n key when the password is refused, undefined when it is fine. */
export function validatePassword(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined; // `required()` reports emptiness
  if ([...value].length < MIN_PASSWORD_LENGTH) return "admin.validation.passwordLength";
  if (!SPECIAL_CHARACTER.test(value)) return "admin.validation.passwordSpecialCharacter";
  return undefined;
}

/** react-admin validator of `passwordConfirmation`, next to a `password` input of the same form. */
export function validatePasswordConfirmation(value: unknown, values: Record<string, unknown>): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return value === values.password ? undefined : "admin.validation.passwordsMustMatch";
}

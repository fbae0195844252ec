// docs/specification.md §5 / docs/api.md: a ticket-office path allows only - _ 0-9 A-Z a-z and must not start with
// preview or test (docs/design.md §5: `/tickets/preview/:path` is the testing mode). Router matching is
// case-insensitive, so "Preview…" is refused too.
const ALLOWED = /^[-_0-9A-Za-z]*$/;
const RESERVED = /^(preview|test)/i;

/** react-admin validator: an i18n key when the path is refused, undefined when it is fine. */
export function validateFrontendPath(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined; // `required()` reports emptiness
  if (!ALLOWED.test(value)) return "admin.validation.frontendPathCharacters";
  if (RESERVED.test(value)) return "admin.validation.frontendPathReserved";
  return undefined;
}

// One error type, one mapper (docs/style.md habit 2). Services throw DomainError; app.onError answers the wire shape.
export type DomainErrorKind =
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "too_many_requests"
  | "provider_failed";

const STATUS: Record<DomainErrorKind, 400 | 401 | 403 | 404 | 409 | 413 | 429 | 502> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  too_many_requests: 429,
  /** A payment provider refused or could not be reached: nothing changed on our side. */
  provider_failed: 502,
};

type Values = Record<string, string | number>;

/**
 * What an error says, as an i18n key of api.json (`errors.sold_out`) that the error mapper renders in the
 * caller's language; a key with values of its own when one error carries several messages (a body's issues).
 */
export type Message = string | { key: string; values?: Values };

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly messages: Message[],
    /** snake_case field name → message */
    readonly fieldErrors?: Record<string, Message>,
    /** values for the keys' placeholders */
    readonly values?: Values,
  ) {
    super(messages.map((message) => (typeof message === "string" ? message : message.key)).join("; "));
    this.name = "DomainError";
  }

  get status() {
    return STATUS[this.kind];
  }
}

export const invalid = (message: Message, fieldErrors?: Record<string, Message>, values?: Values) =>
  new DomainError("invalid", [message], fieldErrors, values);
export const notFound = (message = "errors.not_found") => new DomainError("not_found", [message]);
export const conflict = (message: string, values?: Values) => new DomainError("conflict", [message], undefined, values);
export const unauthorized = (message = "errors.authentication_required") => new DomainError("unauthorized", [message]);
export const forbidden = (message = "errors.forbidden") => new DomainError("forbidden", [message]);
export const providerFailed = (message: string) => new DomainError("provider_failed", [message]);

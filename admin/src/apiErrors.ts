import { HttpError } from "react-admin";

/**
 * For forms that call the API themselves: the field errors of a 400 (camelCase, from the data
 * provider) to give back to react-admin's `<Form onSubmit>`, and the message to notify.
 */
export function submissionErrorsOf(error: unknown): { message: string; fieldErrors: Record<string, string> } {
  if (!(error instanceof HttpError)) {
    return {
      message: error instanceof Error && error.message ? error.message : "admin.errors.unexpected",
      fieldErrors: {},
    };
  }
  const errors: Record<string, unknown> = error.body?.errors ?? {};
  const fieldErrors = Object.fromEntries(
    Object.entries(errors).filter(
      (entry): entry is [string, string] => entry[0] !== "root" && typeof entry[1] === "string",
    ),
  );
  return { message: error.message || "admin.errors.unexpected", fieldErrors };
}

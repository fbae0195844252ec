import { useState } from "react";
import { useNotify } from "react-admin";
import { submissionErrorsOf } from "../apiErrors.ts";

/**
 * The submit handler of a form that calls the API itself: while `isSubmitting`, a second submit is
 * ignored; a refusal is notified and its field errors go back to the form (react-admin's <Form>
 * shows what `onSubmit` resolves to).
 */
export function useApiForm<Values>(call: (values: Values) => Promise<void>) {
  const notify = useNotify();
  const [isSubmitting, setSubmitting] = useState(false);
  // react-admin's form hands over its values untyped; the form's inputs make them `Values`.
  const onSubmit = async (values: Record<string, unknown>): Promise<Record<string, string> | undefined> => {
    if (isSubmitting) return undefined;
    setSubmitting(true);
    try {
      await call(values as Values);
      return undefined;
    } catch (error) {
      const { message, fieldErrors } = submissionErrorsOf(error);
      notify(message, { type: "error" });
      return fieldErrors;
    } finally {
      setSubmitting(false);
    }
  };
  return { isSubmitting, onSubmit };
}

// Password rules (docs/specification.md §5, §9): one source for the API and the back office's forms
// (admin/src/auth/PasswordInputs.tsx).
import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "./constants.ts";

/** The messages of a refused password: i18n keys, whose texts are api.json's `password` (English and French). */
export const PASSWORD_MESSAGES = {
  tooShort: "password.tooShort",
  noSpecialCharacter: "password.noSpecialCharacter",
  mismatch: "password.mismatch",
} as const;

/** Anything that is not a letter or a digit counts as special (spaces included). */
const SPECIAL_CHARACTER = /[^\p{L}\p{N}]/u;

/** A rule a new password breaks (the confirmation is checked apart, beside the password). */
export type PasswordProblem = Exclude<keyof typeof PASSWORD_MESSAGES, "mismatch">;

/** The broken rules of a password, as message keys of PASSWORD_MESSAGES; empty when it is acceptable. */
export function passwordProblems(password: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if ([...password].length < MIN_PASSWORD_LENGTH) problems.push("tooShort");
  if (!SPECIAL_CHARACTER.test(password)) problems.push("noSpecialCharacter");
  return problems;
}

export const zPassword = z
  .string()
  .max(1_000)
  .superRefine((password, ctx) => {
    for (const problem of passwordProblems(password))
      ctx.addIssue({ code: "custom", message: PASSWORD_MESSAGES[problem] });
  });

/** `{password, passwordConfirmation}`: the rules, and the confirmation reported on its own field. */
export const zNewPassword = z
  .object({ password: zPassword, passwordConfirmation: z.string().max(1_000) })
  .refine((v) => v.password === v.passwordConfirmation, {
    message: PASSWORD_MESSAGES.mismatch,
    path: ["passwordConfirmation"],
  });

// Sign-in and accounts (`/auth/*`): the back office's password accounts and the ticket office's logins
// (anonymous, trusted email, third party), and the caller's own ticket-office logins (`/frontend-logins`).
import { z } from "zod";
import { ACCESS_METHODS } from "../constants.ts";
import { PASSWORD_MESSAGES, zPassword } from "../passwords.ts";
import { sitePath } from "../site-path.ts";
import { Id, IsoDate, parseId, zBooleanFlag, zId } from "./common.ts";
import { User } from "./users.ts";

const zEmail = z.email().max(254);
const NEW_PASSWORD = { password: zPassword, passwordConfirmation: z.string().max(1_000) };
const matches = (v: { password: string; passwordConfirmation: string }) => v.password === v.passwordConfirmation;
const MISMATCH = { message: PASSWORD_MESSAGES.mismatch, path: ["passwordConfirmation"] };

// --- Back-office accounts -------------------------------------------------------------------------------------

export const Login = z.strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(1_000) });
export type Login = z.output<typeof Login>;

export const Registration = z
  .strictObject({
    email: zEmail,
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    ...NEW_PASSWORD,
  })
  .refine(matches, MISMATCH);
export type Registration = z.output<typeof Registration>;

/** The two parts of the emailed verification link. */
export const RegistrationVerification = z.strictObject({
  userIdB64: z.string().min(1).max(100),
  hash: z.string().min(1).max(200),
});
export type RegistrationVerification = z.output<typeof RegistrationVerification>;

export const PasswordResetRequest = z.strictObject({ email: zEmail });
export type PasswordResetRequest = z.output<typeof PasswordResetRequest>;

/** A new password through the emailed link. */
export const PasswordReset = z
  .strictObject({ userIdB64: z.string().min(1).max(100), tokenB64: z.string().min(1).max(200), ...NEW_PASSWORD })
  .refine(matches, MISMATCH);
export type PasswordReset = z.output<typeof PasswordReset>;

/** A signed-in user's new password. */
export const PasswordChange = z
  .strictObject({ currentPassword: z.string().min(1).max(1_000), ...NEW_PASSWORD })
  .refine(matches, MISMATCH);
export type PasswordChange = z.output<typeof PasswordChange>;

/** `POST /auth/token/refresh` and `POST /auth/logout`. */
export const RefreshTokenBody = z.strictObject({ refreshToken: z.string().min(1) });
export type RefreshTokenBody = z.output<typeof RefreshTokenBody>;

/** A session: a short-lived access token and the refresh token that rotates it. */
export const TokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof TokenPair>;

/** The answer of the account calls: a sentence in the caller's language. */
export const Detail = z.object({ detail: z.string() });
export type Detail = z.infer<typeof Detail>;

/** A password change ends every session, the caller's too, who gets a new one. */
export const PasswordChanged = Detail.extend(TokenPair.shape);
export type PasswordChanged = z.infer<typeof PasswordChanged>;

/** `GET /auth/me`: who the token speaks for, a back-office user, ticket-office logins, or both. */
export const AuthMe = z.object({
  userId: Id.nullable(),
  frontendLoginIds: z.array(Id),
  user: User.pick({
    id: true,
    email: true,
    firstName: true,
    lastName: true,
    isSuperuser: true,
    personalUnitId: true,
  }).nullable(),
});
export type AuthMe = z.infer<typeof AuthMe>;

// --- Ticket-office logins -------------------------------------------------------------------------------------

/** Which event's ticket office (its registration module), and whether in testing (preview) mode. */
const OFFICE = { activeModuleId: zId, isTesting: zBooleanFlag.default(false) };

export const AnonymousLoginCreate = z.strictObject(OFFICE);
export type AnonymousLoginCreate = z.output<typeof AnonymousLoginCreate>;

/** A path of this site, normalised: the checked form is the one kept (shared/site-path). */
const zSitePath = z
  .string()
  .max(500)
  .transform((value, ctx) => {
    const path = sitePath(value);
    if (path === null) ctx.addIssue({ code: "custom", message: "errors.next_url_off_site" });
    return path ?? z.NEVER;
  });

export const TrustedEmailLoginCreate = z.strictObject({ ...OFFICE, email: zEmail, nextUrl: zSitePath.optional() });
export type TrustedEmailLoginCreate = z.output<typeof TrustedEmailLoginCreate>;

/** The two parts of the emailed login link. */
export const TrustedEmailLoginValidation = z.strictObject({
  ...OFFICE,
  loginPk: zId,
  validationToken: z.string().min(1).max(200),
});
export type TrustedEmailLoginValidation = z.output<typeof TrustedEmailLoginValidation>;

export const ThirdPartyLoginCreate = z.strictObject({ ...OFFICE, token: z.string().min(1).max(5_000) });
export type ThirdPartyLoginCreate = z.output<typeof ThirdPartyLoginCreate>;

/** A ticket-office login as stored, answered by the sign-in calls. */
export const FrontendLoginRecord = z.object({
  id: Id,
  eventId: Id,
  testing: z.boolean(),
  method: z.enum(ACCESS_METHODS),
  email: z.string().nullable(),
  username: z.string(),
  /** The back-office user previewing the ticket office, in testing mode. */
  userId: Id.nullable(),
  validationTokenHash: z.string().nullable(),
  validationExpiresAt: IsoDate.nullable(),
  validatedAt: IsoDate.nullable(),
  createdAt: IsoDate,
});
export type FrontendLoginRecord = z.infer<typeof FrontendLoginRecord>;

/** A ticket-office sign-in: its tokens also carry the caller's earlier logins. */
export const FrontendSignIn = TokenPair.extend({ login: FrontendLoginRecord });
export type FrontendSignIn = z.infer<typeof FrontendSignIn>;

/** `POST /auth/anonymous-login`. */
export const AnonymousLogin = FrontendSignIn;
export type AnonymousLogin = FrontendSignIn;

/** `GET /frontend-logins?id=1,2` (docs/specification.md §7): comma-joined ids, the caller's own only. */
export const FrontendLoginQuery = z.object({
  id: z
    .string()
    .refine((list) => list.split(",").every((id) => parseId(id) !== null), "errors.id_list_invalid")
    .transform((list) => list.split(",").map(Number))
    .optional(),
});
export type FrontendLoginQuery = z.output<typeof FrontendLoginQuery>;

/** One of the caller's ticket-office logins (`event` repeats `eventId`, as the ticket office reads it). */
export const FrontendLogin = z.object({
  id: Id,
  event: Id,
  eventId: Id,
  testing: z.boolean(),
  email: z.string().nullable(),
  username: z.string(),
  method: z.enum(ACCESS_METHODS),
  /** Whether the login proved its email (shared/src/ticket-office.ts `provesEmail`): a waiting list needs one. */
  emailProved: z.boolean(),
});
export type FrontendLogin = z.infer<typeof FrontendLogin>;

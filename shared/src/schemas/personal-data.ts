// A buyer's personal data (issue 35, docs/decisions/0046): support's export of everything the product holds about
// one email, and its erasure. Emails are compared trimmed and in lower case.
import { z } from "zod";
import { Id, IsoDate, zId } from "./common.ts";

/** A buyer's email as support types it: trimmed, lower-cased. */
const zBuyerEmail = z
  .string()
  .trim()
  .min(3, { error: "errors.personal_data_email_invalid" })
  .max(254, { error: "errors.personal_data_email_invalid" })
  .refine((value) => /^[^\s@]+@[^\s@]+$/.test(value), { error: "errors.personal_data_email_invalid" })
  .transform((value) => value.toLowerCase());

export const PERSONAL_DATA_FORMATS = ["json", "csv"] as const;

/**
 * `GET /personal-data`: what is held about `email`, in the events the caller covers (every event for a superuser,
 * the events of the units they own otherwise; `unit_id` narrows to one of them). `format=csv` downloads a file.
 */
export const PersonalDataQuery = z.object({
  email: zBuyerEmail,
  unitId: zId.optional(),
  format: z.enum(PERSONAL_DATA_FORMATS).default("json"),
});
export type PersonalDataQuery = z.infer<typeof PersonalDataQuery>;

/** The kinds of rows an export lists and an erasure counts. */
export const PERSONAL_DATA_KINDS = [
  "billing_information",
  "basket",
  "basket_line",
  "form_answer",
  "invoice",
  "invoice_line",
  "payment",
  "login",
  "session",
  "waiting_list_entry",
  "waiting_room_place",
  "check_in",
  "mail",
  "uploaded_image",
  "rate_limit",
] as const;
export type PersonalDataKind = (typeof PERSONAL_DATA_KINDS)[number];

/** One value of a row, as stored (JSON columns as their text). */
const Field = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One row held about the buyer. */
export const PersonalDataRecord = z.object({
  kind: z.enum(PERSONAL_DATA_KINDS),
  id: z.union([z.number(), z.string()]),
  /** The event it belongs to; null for what belongs to none (a rate-limit counter, a mail about no event). */
  eventId: Id.nullable(),
  fields: z.record(z.string(), Field),
});
export type PersonalDataRecord = z.infer<typeof PersonalDataRecord>;

const Counts = z.record(z.string(), z.number().int());

/** An event the answer covers, with what it holds about the buyer. */
export const PersonalDataEvent = z.object({
  id: Id,
  name: z.string(),
  unitId: Id,
  unitName: z.string(),
  counts: Counts,
});
export type PersonalDataEvent = z.infer<typeof PersonalDataEvent>;

/** Which units an answer or an erasure covered: null for every unit (a superuser). */
const Coverage = {
  unitIds: z.array(Id).nullable(),
  /** The units' names, for the caller to read (empty for every unit). */
  unitNames: z.array(z.string()),
};

export const PersonalData = z.object({
  email: z.string(),
  generatedAt: IsoDate,
  ...Coverage,
  /** Events holding something about the buyer, in id order. */
  events: z.array(PersonalDataEvent),
  /** Rows of each kind, over every event and none. */
  counts: Counts,
  /** Whether anything at all is held. */
  found: z.boolean(),
  records: z.array(PersonalDataRecord),
});
export type PersonalData = z.infer<typeof PersonalData>;

/** `POST /personal-data/erasures`: the email, and the same email typed again. */
export const PersonalDataErasureRequest = z
  .strictObject({
    email: zBuyerEmail,
    confirmation: z.string().max(254),
    unitId: zId.optional(),
  })
  .refine((body) => body.confirmation.trim().toLowerCase() === body.email, {
    error: "errors.personal_data_confirmation_mismatch",
    path: ["confirmation"],
  });
export type PersonalDataErasureRequest = z.infer<typeof PersonalDataErasureRequest>;

/** A record of an erasure (never the email): when, by whom, which units and events, how many rows of each kind. */
export const PersonalDataErasure = z.object({
  id: Id,
  createdAt: IsoDate,
  erasedById: Id.nullable(),
  erasedByEmail: z.string().nullable(),
  ...Coverage,
  eventIds: z.array(Id),
  counts: Counts,
});
export type PersonalDataErasure = z.infer<typeof PersonalDataErasure>;

/** The answer of an erasure: its record, the events it covered, and whether anything was held at all. */
export const PersonalDataErased = PersonalDataErasure.extend({
  events: z.array(z.object({ id: Id, name: z.string() })),
  /** False when nothing was held about the email (the erasure is still recorded). */
  found: z.boolean(),
});
export type PersonalDataErased = z.infer<typeof PersonalDataErased>;

/** `GET /personal-data/erasures`: the erasures the caller may see, newest first; `email` keeps those of one address. */
export const PersonalDataErasuresQuery = z.object({ email: zBuyerEmail.optional(), unitId: zId.optional() });

/** The address that takes an erased email's place: unique per row, in a domain that can never receive mail. */
export const ERASED_EMAIL_DOMAIN = "erased.invalid";
export const erasedEmail = (kind: string, id: number | string) => `erased-${kind}-${id}@${ERASED_EMAIL_DOMAIN}`;
export const isErasedEmail = (email: string) => email.toLowerCase().endsWith(`@${ERASED_EMAIL_DOMAIN}`);
/** What takes an erased name's, address's or answer's place. */
export const ERASED_TEXT = "Erased";

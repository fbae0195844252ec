// Units (issue 3): an organiser's team, its payout details and the agent fees a superuser sets.
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { z } from "zod";
import { UNIT_ROLES } from "../constants.ts";
import { Cents, Id, IsoDate } from "./common.ts";

/** An IBAN as typed (spaces, lower case), stored in electronic format; an empty text is none. */
export const zIban = z
  .string()
  .trim()
  .max(50)
  .transform((value, ctx) => {
    if (value === "") return null;
    const iban = electronicFormatIBAN(value) ?? "";
    if (!isValidIBAN(iban)) {
      ctx.addIssue({ code: "custom", message: "errors.iban_invalid" });
      return z.NEVER;
    }
    return iban;
  });

const UnitFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(5_000),
  email: z.email().max(254).or(z.literal("")).nullable(),
  address: z.string().max(1_000).nullable(),
  iban: zIban.nullable(),
  payoutAccountHolder: z.string().max(200).nullable(),
  /** cents */
  agentBaseFees: z.number().int().min(0).max(1_000_000),
  /** hundredths of a percent */
  agentFees: z.number().int().min(0).max(10_000),
};

const { agentBaseFees: _agentBaseFees, agentFees: _agentFees, ...CreateFields } = UnitFields;

/** A new unit: a name, the rest optional; the agent fees are a superuser's to change afterwards. */
export const UnitCreate = z.strictObject({
  ...CreateFields,
  description: CreateFields.description.optional(),
  email: CreateFields.email.optional(),
  address: CreateFields.address.optional(),
  iban: CreateFields.iban.optional(),
  payoutAccountHolder: CreateFields.payoutAccountHolder.optional(),
});
export type UnitCreate = z.output<typeof UnitCreate>;

/** The fields to change (none answers the unit as it is); the admin's read-only fields are accepted and ignored. */
export const UnitUpdate = z
  .strictObject({
    ...UnitFields,
    id: z.unknown(),
    createdAt: z.unknown(),
    currentUserRole: z.unknown(),
    isStripeConfigured: z.unknown(),
    stripeWebhookUrl: z.unknown(),
  })
  .partial();
export type UnitUpdate = z.output<typeof UnitUpdate>;

export const UnitRole = z.enum(UNIT_ROLES);

export const Unit = z.object({
  id: Id,
  name: z.string(),
  description: z.string(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  iban: z.string().nullable(),
  payoutAccountHolder: z.string().nullable(),
  agentBaseFees: Cents,
  agentFees: z.number().int(),
  createdAt: IsoDate,
  /** The caller's role in the unit; null for a superuser who is not a member. */
  currentUserRole: UnitRole.nullable(),
  /** Whether the unit's Stripe secret key and webhook signing secret are set (they are never answered). */
  isStripeConfigured: z.boolean(),
  /** The address to give Stripe's dashboard as the unit's webhook endpoint. */
  stripeWebhookUrl: z.string(),
});
export type Unit = z.infer<typeof Unit>;

/**
 * `PUT /units/:id/stripe`: the unit's Stripe account, both secrets at once, as copied from Stripe's dashboard (a
 * secret or restricted key, test or live, and the webhook endpoint's signing secret). Write-only: no answer
 * carries them.
 */
export const UnitStripeSettings = z.strictObject({
  secretKey: z
    .string()
    .trim()
    .max(255)
    .regex(/^(sk|rk)_(test|live)_[0-9A-Za-z]{10,}$/, "errors.stripe_secret_key_format"),
  webhookSecret: z
    .string()
    .trim()
    .max(255)
    .regex(/^whsec_[0-9A-Za-z+/=]{10,}$/, "errors.stripe_webhook_secret_format"),
});
export type UnitStripeSettings = z.output<typeof UnitStripeSettings>;

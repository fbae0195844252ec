import { UNIT_ROLES } from "@ticketing/shared/constants";
import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, createdAt, id } from "./columns.ts";

export const units = sqliteTable("units", {
  id: id(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  email: text("email"),
  address: text("address"),
  iban: text("iban"),
  payoutAccountHolder: text("payout_account_holder"),
  agentBaseFees: integer("agent_base_fees").notNull().default(0), // cents
  agentFees: integer("agent_fees").notNull().default(0), // hundredths of a percent
  /** The unit's Stripe secret key and webhook signing secret, encrypted with the product's secret (never answered). */
  stripeSecretKeyEncrypted: text("stripe_secret_key_encrypted"),
  stripeWebhookSecretEncrypted: text("stripe_webhook_secret_encrypted"),
  createdAt: createdAt(),
});

export const users = sqliteTable("users", {
  id: id(),
  email: text("email").notNull().unique(),
  username: text("username").notNull(),
  passwordHash: text("password_hash").notNull(),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  personalUnitId: integer("personal_unit_id").references((): AnySQLiteColumn => units.id, { onDelete: "set null" }),
  isActive: bool("is_active").notNull().default(true),
  isSuperuser: bool("is_superuser").notNull().default(false),
  emailVerifiedAt: text("email_verified_at"),
  /** Raised when the password changes: access tokens carrying an older version are refused. */
  sessionVersion: integer("session_version").notNull().default(0),
  createdAt: createdAt(),
});

export const memberships = sqliteTable(
  "memberships",
  {
    id: id(),
    unitId: integer("unit_id")
      .notNull()
      .references(() => units.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: UNIT_ROLES }).notNull().default("member"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("memberships_unit_user").on(t.unitId, t.userId), index("memberships_user").on(t.userId)],
);

/** Refresh tokens of back-office users and ticket-office logins, stored hashed, rotated on use. */
export const refreshTokens = sqliteTable(
  "refresh_tokens",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** JSON array of frontend login ids carried by the session. */
    frontendLoginIds: text("frontend_login_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    /** Every token rotated from the same login shares a family: reusing a rotated token revokes the family. */
    family: text("family").notNull().default(""),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [index("refresh_tokens_user").on(t.userId), index("refresh_tokens_family").on(t.family)],
);

/** Single-use tokens: email verification and password reset. Stored hashed. */
export const userTokens = sqliteTable("user_tokens", {
  id: id(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  purpose: text("purpose", { enum: ["register_verify", "password_reset"] }).notNull(),
  tokenHash: text("token_hash").notNull(),
  expiresAt: text("expires_at").notNull(),
  usedAt: text("used_at"),
  createdAt: createdAt(),
});

// Erasing a buyer's personal data at their request (docs/decisions/0046): names, addresses, answers and emails are
// replaced, logins and waiting-list entries anonymised, sessions revoked, queued mails cancelled, uploads and
// rate-limit counters deleted; invoices keep their numbers, dates, amounts and lines, and say the data was erased.
// Each erasure is recorded without the email (a salted hash of it), so support can show it was done.
import { createHash, randomBytes } from "node:crypto";
import { type Database, eq, inArray, run, schema, sql } from "@ticketing/db";
import {
  ERASED_EMAIL_DOMAIN,
  ERASED_TEXT,
  type PersonalDataErased,
  type PersonalDataErasureRequest,
} from "@ticketing/shared/schemas/personal-data";
import type { User } from "../accounts/access.ts";
import { closeEntryStatements } from "../waiting-list/offers.ts";
import { coverageOf } from "./coverage.ts";
import { countsOf, findHoldings, type Holdings, numericIds } from "./holdings.ts";

/** The salted hash an erasure keeps in place of the email. */
export const emailHash = (salt: string, email: string) =>
  createHash("sha256").update(`${salt}:${email.trim().toLowerCase()}`).digest("hex");

/** `'erased-<kind>-' || id || '@erased.invalid'`: a unique address per row that can never receive mail. */
const erasedAddress = (kind: string, id: unknown) => sql`${`erased-${kind}-`} || ${id} || ${`@${ERASED_EMAIL_DOMAIN}`}`;

/** The texts the erasure removes wherever staff may have copied them (a refund's reason, a payment's error). */
function erasedTexts(holdings: Holdings, email: string): string[] {
  const texts = new Set([email]);
  for (const record of holdings.records) {
    if (record.kind !== "billing_information" && record.kind !== "form_answer") continue;
    const { fields } = record;
    for (const key of ["firstName", "lastName", "email", "address", "value"])
      if (typeof fields[key] === "string" && (fields[key] as string).trim().length >= 3)
        texts.add((fields[key] as string).trim());
  }
  return [...texts];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const scrub = (text: string, texts: string[]) =>
  texts.reduce((result, secret) => result.replace(new RegExp(escapeRegExp(secret), "gi"), ERASED_TEXT), text);

/** Erases what `user` covers of `request.email`'s data; answers the erasure's record. Erasing again is harmless. */
export async function erasePersonalData(
  database: Database,
  user: User,
  request: PersonalDataErasureRequest,
  now: Date,
): Promise<PersonalDataErased> {
  const { db } = database;
  const email = request.email;
  const coverage = await coverageOf(db, user, request.unitId);
  const holdings = await findHoldings(db, email, coverage);
  const at = now.toISOString();
  const s = schema;

  // A buyer still in line leaves it first, through the list's own statements (its stock goes to the next in line).
  const entries = holdings.records.filter((record) => record.kind === "waiting_list_entry");
  for (const entry of entries)
    if (entry.fields.state === "waiting" || entry.fields.state === "offered")
      await database.batch(closeEntryStatements(entry.id as number, "removed", at));

  const ids = (kind: Parameters<typeof numericIds>[1]) => numericIds(holdings, kind);
  const texts = erasedTexts(holdings, email);
  const invoices = holdings.records.filter((record) => record.kind === "invoice" && record.fields.reason);
  const payments = holdings.records.filter((record) => record.kind === "payment" && record.fields.errorMessage);
  const salt = randomBytes(16).toString("hex");
  const counts = countsOf(holdings);

  const erasure = await database.transaction(function* (tx) {
    const billing = ids("billing_information");
    if (billing.length)
      yield* run(
        tx
          .update(s.billingInformation)
          .set({
            firstName: ERASED_TEXT,
            lastName: "",
            email: erasedAddress("billing", s.billingInformation.id),
            address: "",
            postalCode: "",
            city: "",
            country: "",
            erasedAt: sql`coalesce(${s.billingInformation.erasedAt}, ${at})`,
          })
          .where(inArray(s.billingInformation.id, billing))
          .run(),
      );
    const answers = ids("form_answer");
    if (answers.length)
      yield* run(
        tx
          .update(s.selectedNodeExtraInfos)
          .set({
            value: sql`case when coalesce(${s.selectedNodeExtraInfos.value}, '') = '' then ${s.selectedNodeExtraInfos.value} else ${ERASED_TEXT} end`,
          })
          .where(inArray(s.selectedNodeExtraInfos.id, answers))
          .run(),
      );
    const logins = ids("login");
    if (logins.length)
      yield* run(
        tx
          .update(s.frontendLogins)
          .set({
            email: sql`case when ${s.frontendLogins.email} is null then null else ${erasedAddress("login", s.frontendLogins.id)} end`,
            username: sql`${"erased-login-"} || ${s.frontendLogins.id}`,
            validationTokenHash: null,
            validationExpiresAt: null,
          })
          .where(inArray(s.frontendLogins.id, logins))
          .run(),
      );
    const sessions = ids("session");
    if (sessions.length)
      yield* run(
        tx
          .update(s.refreshTokens)
          .set({ revokedAt: sql`coalesce(${s.refreshTokens.revokedAt}, ${at})` })
          .where(inArray(s.refreshTokens.id, sessions))
          .run(),
      );
    const waiting = ids("waiting_list_entry");
    if (waiting.length)
      yield* run(
        tx
          .update(s.waitingListEntries)
          .set({ email: erasedAddress("entry", s.waitingListEntries.id), updatedAt: at })
          .where(inArray(s.waitingListEntries.id, waiting))
          .run(),
      );
    const mails = ids("mail");
    if (mails.length) {
      yield* run(
        tx
          .update(s.mailOutbox)
          .set({ status: "cancelled", nextAttemptAt: null, claimedBy: null })
          .where(sql`${inArray(s.mailOutbox.id, mails)} and ${s.mailOutbox.status} = 'pending'`)
          .run(),
      );
      yield* run(
        tx
          .update(s.mailOutbox)
          .set({ to: erasedAddress("mail", s.mailOutbox.id), lastError: null })
          .where(inArray(s.mailOutbox.id, mails))
          .run(),
      );
    }
    // A waiting room's place keeps its order, without the address and device it was taken from.
    const places = ids("waiting_room_place");
    if (places.length)
      yield* run(
        tx
          .update(s.waitingRoomPlaces)
          .set({ address: "", device: null })
          .where(inArray(s.waitingRoomPlaces.id, places))
          .run(),
      );
    const images = ids("uploaded_image");
    if (images.length) yield* run(tx.delete(s.uploadedImages).where(inArray(s.uploadedImages.id, images)).run());
    const keys = (holdings.ids.rate_limit ?? []).map(String);
    if (keys.length) yield* run(tx.delete(s.rateLimits).where(inArray(s.rateLimits.key, keys)).run());
    // Staff's own words about the sale stay, without the buyer's name or address in them.
    for (const invoice of invoices)
      yield* run(
        tx
          .update(s.invoices)
          .set({ reason: scrub(String(invoice.fields.reason), texts) })
          .where(eq(s.invoices.id, invoice.id as number))
          .run(),
      );
    for (const payment of payments)
      yield* run(
        tx
          .update(s.paymentIntents)
          .set({ errorMessage: scrub(String(payment.fields.errorMessage), texts) })
          .where(eq(s.paymentIntents.id, payment.id as number))
          .run(),
      );
    return yield* run(
      tx
        .insert(s.personalDataErasures)
        .values({
          erasedById: user.id,
          emailHash: emailHash(salt, email),
          emailSalt: salt,
          unitIds: coverage.unitIds,
          eventIds: holdings.eventIds,
          counts,
          createdAt: at,
        })
        .returning()
        .get(),
    );
  });

  const events = holdings.eventIds.length
    ? await db
        .select({ id: s.events.id, name: s.events.name })
        .from(s.events)
        .where(inArray(s.events.id, holdings.eventIds))
        .all()
    : [];
  return {
    id: erasure.id,
    createdAt: erasure.createdAt,
    erasedById: user.id,
    erasedByEmail: user.email,
    unitIds: coverage.unitIds,
    unitNames: coverage.unitNames,
    eventIds: holdings.eventIds,
    counts,
    events,
    found: holdings.records.length > 0,
  };
}

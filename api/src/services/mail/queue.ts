// Queueing a mail (docs/decisions/0008-mail-delivery-and-large-orders.md): a service writes the mail's outbox
// row in the transaction that causes it, so the mail leaves only if that transaction commits. The row carries
// ids and links, never the rendered text: the delivery worker (delivery.ts) renders and sends it later. This
// module loads no template, no PDF library and no SMTP client, so a service that queues a mail needs none.
import { type Db, eq, run, schema } from "@ticketing/db";
import type { Language, MailKind } from "@ticketing/shared/constants";
import { isErasedEmail } from "@ticketing/shared/schemas/personal-data";
import { z } from "zod";

const { mailOutbox } = schema;
export type OutboxMail = typeof mailOutbox.$inferSelect;

const basketPayload = z.strictObject({ basket_id: z.number().int().positive() });
/** A test of an event's mail from the back office, rendered with a sample order and the event's saved texts. */
const samplePayload = z.strictObject({ event_id: z.number().int().positive(), is_test: z.literal(true) });
const orderPayload = z.union([basketPayload, samplePayload]);
const linkPayload = z.strictObject({ link: z.url() });

/** The payload each kind of mail carries in the outbox: ids and links, never the rendered text. */
export const MAIL_PAYLOADS = {
  order_confirmation: orderPayload,
  payment_reminder: orderPayload,
  trusted_email_login: z.strictObject({ link: z.url(), event_title: z.string().min(1) }),
  register_verify: linkPayload,
  register_existing: linkPayload,
  password_reset: linkPayload,
  payment_expired: basketPayload,
  /** A credit note: `invoice_id` is the refund's (negative) invoice of the basket. */
  refund: z.strictObject({ basket_id: z.number().int().positive(), invoice_id: z.number().int().positive() }),
  /** A waiting list's entry: its confirmation, and its offer (queued by the write that offers it, in SQL). */
  waiting_list_joined: z.strictObject({ entry_id: z.number().int().positive() }),
  waiting_list_offer: z.strictObject({ entry_id: z.number().int().positive() }),
  /** An event cancelled (docs/decisions/0047): with `invoice_id`, its refund's credit note; without, to refund by hand. */
  event_cancelled: z.strictObject({
    basket_id: z.number().int().positive(),
    invoice_id: z.number().int().positive().optional(),
  }),
  /** A unit's webhook endpoint switched off after days of failures: told to each of the unit's owners. */
  webhook_disabled: z.strictObject({ endpoint_id: z.number().int().positive() }),
} satisfies Record<MailKind, z.ZodType>;

export type MailPayloads = { [K in MailKind]: z.infer<(typeof MAIL_PAYLOADS)[K]> };

export interface MailRequest<K extends MailKind> {
  kind: K;
  to: string;
  language: Language;
  payload: MailPayloads[K];
}

/**
 * Queues a mail inside a transaction body: `yield* enqueueMail(tx, {...})`. Sent only if the transaction commits. A
 * mail to an erased address (docs/decisions/0046) is written cancelled: it is never sent.
 */
export function* enqueueMail<K extends MailKind>(
  tx: Db,
  mail: MailRequest<K>,
): Generator<unknown, OutboxMail, unknown> {
  const payload = MAIL_PAYLOADS[mail.kind].parse(mail.payload) as Record<string, unknown>;
  const status = isErasedEmail(mail.to) ? "cancelled" : "pending";
  return yield* run(
    tx
      .insert(mailOutbox)
      .values({ kind: mail.kind, to: mail.to, language: mail.language, payload, status })
      .returning()
      .get(),
  );
}

/**
 * Queues a mail about a basket to its buyer's billing address, in the buyer's language (inside a transaction
 * body): the queued row, or null when the basket has no billing information yet.
 */
export function* mailBasketBuyer<K extends MailKind>(
  tx: Db,
  basketId: number,
  kind: K,
  payload: MailPayloads[K],
): Generator<unknown, OutboxMail | null, unknown> {
  const buyer = yield* run(
    tx
      .select({ email: schema.billingInformation.email, language: schema.baskets.language })
      .from(schema.baskets)
      .innerJoin(schema.billingInformation, eq(schema.billingInformation.id, schema.baskets.billingInformationId))
      .where(eq(schema.baskets.id, basketId))
      .get(),
  );
  if (!buyer) return null;
  return yield* enqueueMail(tx, { kind, to: buyer.email, language: buyer.language, payload });
}

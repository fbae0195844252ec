// The template registry (docs/decisions/0008-mail-delivery-and-large-orders.md): what each kind of queued mail
// says, rendered at delivery from its outbox row's payload (queue.ts). One file per family of mails: order-mails
// (confirmation, reminder, expired payment), refund-mails, link-mails (logins and accounts), waiting-list-mails.
import type { Language, MailKind } from "@ticketing/shared/constants";
import { loadOrder } from "../../tickets/tickets.ts";
import { MAIL_PAYLOADS } from "../queue.ts";
import { renderEventCancelledMail } from "./cancellation-mails.ts";
import { type MailTemplateContext, mailTranslator, type RenderedMail } from "./layout.ts";
import { linkMail } from "./link-mails.ts";
import { asTestMail, renderOrderMail, renderPaymentExpiredMail, sampleOrderOf } from "./order-mails.ts";
import { renderRefundMail } from "./refund-mails.ts";
import { renderWaitingListMail } from "./waiting-list-mails.ts";
import { renderWebhookDisabledMail } from "./webhook-mails.ts";

/** Renders an outbox row; throws when its payload is invalid or what it refers to is gone (the worker retries). */
export async function renderMail(
  context: MailTemplateContext,
  mail: { kind: MailKind; language: Language; payload: unknown },
): Promise<RenderedMail> {
  const t = mailTranslator(mail.language);
  switch (mail.kind) {
    case "order_confirmation":
    case "payment_reminder": {
      const payload = MAIL_PAYLOADS[mail.kind].parse(mail.payload);
      const order =
        "basket_id" in payload
          ? await loadOrder(context.database, payload.basket_id)
          : await sampleOrderOf(context.database, {
              eventId: payload.event_id,
              language: mail.language,
              isTesting: true,
            });
      if (!order) throw new Error(`basket ${"basket_id" in payload ? payload.basket_id : "?"} not found`);
      const rendered = await renderOrderMail(context, mail.language, order, mail.kind);
      return "basket_id" in payload ? rendered : asTestMail(t, rendered);
    }
    case "trusted_email_login": {
      const { link, event_title } = MAIL_PAYLOADS.trusted_email_login.parse(mail.payload);
      return linkMail(t, mail.language, "trusted_email_login", link, event_title);
    }
    case "register_verify":
      return linkMail(t, mail.language, "register_verify", MAIL_PAYLOADS.register_verify.parse(mail.payload).link);
    case "register_existing":
      return linkMail(t, mail.language, "register_existing", MAIL_PAYLOADS.register_existing.parse(mail.payload).link);
    case "password_reset":
      return linkMail(t, mail.language, "password_reset", MAIL_PAYLOADS.password_reset.parse(mail.payload).link);
    case "payment_expired":
      return renderPaymentExpiredMail(context, t, mail.language, MAIL_PAYLOADS.payment_expired.parse(mail.payload));
    case "refund":
      return renderRefundMail(context, t, mail.language, MAIL_PAYLOADS.refund.parse(mail.payload));
    case "event_cancelled":
      return renderEventCancelledMail(context, t, mail.language, MAIL_PAYLOADS.event_cancelled.parse(mail.payload));
    case "waiting_list_joined":
    case "waiting_list_offer":
      return renderWaitingListMail(context, t, mail.language, mail.kind, MAIL_PAYLOADS[mail.kind].parse(mail.payload));
    case "webhook_disabled":
      return renderWebhookDisabledMail(context, t, mail.language, MAIL_PAYLOADS.webhook_disabled.parse(mail.payload));
  }
}

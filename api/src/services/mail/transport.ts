// How a rendered mail leaves (docs/decisions/0008-mail-delivery-and-large-orders.md): over SMTP, one connection
// per mail opened by us so that an abort destroys it; or, without SMTP_URL, as an .eml file under DATA_DIR/mail
// (the development mailbox).
import { mkdir, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import type { MailKind } from "@ticketing/shared/constants";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { Config } from "../../env.ts";
import { type Log, log } from "../../lib/log.ts";
import type { OutboxMail } from "./queue.ts";
import type { RenderedMail } from "./templates/layout.ts";

export interface OutgoingMail extends RenderedMail {
  id: number;
  kind: MailKind;
  to: string;
  /** Derived from the outbox row: a mail sent again after a crash carries the same one, so mailboxes can tell. */
  messageId: string;
}

/** Sends one rendered mail; throws when it was not accepted. Stops (and throws) when `signal` aborts. */
export interface MailTransport {
  send(mail: OutgoingMail, signal: AbortSignal): Promise<void>;
}

export type MailConfig = Pick<Config, "smtpUrl" | "mailFrom" | "dataDir" | "logMails">;

/** `<mail-42.20261121T100000123Z@example.org>`: the row's id and creation time, at the sender's domain. */
export function messageIdOf(mail: Pick<OutboxMail, "id" | "createdAt">, mailFrom: string): string {
  const domain = /@([\w.-]+)/.exec(mailFrom)?.[1] ?? "localhost";
  return `<mail-${mail.id}.${mail.createdAt.replace(/[^\dTZ]/g, "")}@${domain}>`;
}

/**
 * The platform's sender, under the event's sender name when it has one: the address stays ours (the domain whose
 * SPF/DKIM vouch for the mail), only the name buyers read changes.
 */
function fromOf(mailFrom: string, name: string | null): string | { name: string; address: string } {
  if (!name) return mailFrom;
  return { name, address: /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim() };
}

/**
 * SMTP when `config.smtpUrl` is set; otherwise `.eml` files in `<dataDir>/mail/` and, if `logMails`, a log line
 * naming the file (never the mail's links: a login link or an order link is a key).
 */
export function createMailTransport(config: MailConfig, logger: Log = log): MailTransport {
  const message = (mail: OutgoingMail) => ({
    from: fromOf(config.mailFrom, mail.sender?.name ?? null),
    ...(mail.sender?.replyTo ? { replyTo: mail.sender.replyTo } : {}),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments,
    messageId: mail.messageId,
  });
  return config.smtpUrl ? smtpTransport(config.smtpUrl, message) : mailboxTransport(config, logger, message);
}

type MessageOf = (mail: OutgoingMail) => nodemailer.SendMailOptions;

function smtpTransport(smtpUrl: string, message: MessageOf): MailTransport {
  return {
    async send(mail, signal) {
      signal.throwIfAborted();
      // One connection per mail, opened by us: an abort (time limit, lost claim) destroys it, so nothing of
      // the mail can still reach the server after the worker gave it up.
      const sockets = new Set<Socket>();
      const options: SMTPTransport.Options = {
        url: smtpUrl,
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 30_000,
        getSocket(target, callback) {
          const socket = connect({
            host: target.host ?? "localhost",
            port: Number(target.port) || (target.secure ? 465 : 587),
          });
          sockets.add(socket);
          const refuse = (error: Error) => callback(error, undefined);
          socket.once("error", refuse);
          socket.once("connect", () => {
            socket.off("error", refuse);
            callback(null, { connection: socket });
          });
        },
      };
      const smtp = nodemailer.createTransport(options);
      const abort = () => {
        for (const socket of sockets) socket.destroy(signal.reason instanceof Error ? signal.reason : undefined);
      };
      signal.addEventListener("abort", abort, { once: true });
      try {
        await smtp.sendMail(message(mail));
      } finally {
        signal.removeEventListener("abort", abort);
        smtp.close();
      }
    },
  };
}

/** The development mailbox: each mail an .eml file, named by time, id and kind. */
function mailboxTransport(config: MailConfig, logger: Log, message: MessageOf): MailTransport {
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const directory = join(config.dataDir, "mail");
  return {
    async send(mail, signal) {
      const info = await stream.sendMail(message(mail));
      signal.throwIfAborted();
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d+Z$/, "Z");
      await mkdir(directory, { recursive: true });
      const file = join(directory, `${stamp}-${mail.id}-${mail.kind}.eml`);
      await writeFile(file, info.message as Buffer);
      if (config.logMails) logger.info({ mail: mail.id, kind: mail.kind, file }, "mail written");
    },
  };
}

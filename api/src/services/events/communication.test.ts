// An event's communication (docs/specification.md §2.2 "communication"): its texts in English and French reach the
// buyers' mails in their language, with the event's sender name, reply-to address and signature; the back office
// previews a mail and the PDF ticket from unsaved texts and sends itself a test mail through the outbox.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq, schema } from "@ticketing/db";
import { describe, expect, it } from "vitest";
import {
  checkOut,
  createOnSaleEvent,
  DRIVERS,
  FRENCH,
  loginAs,
  payOnDemoPage,
  readyBuyer,
  signedInUser,
  useTestContext,
  writeEventRow,
} from "../../test-support.ts";
import { renderMail } from "../mail/templates/registry.ts";
import { createMailTransport } from "../mail/transport.ts";

const TEXTS = {
  sender_name: "Winter Ball team",
  reply_to: "hello@winterball.example",
  signature_en: "Warm regards,\nThe {{event}} crew",
  signature_fr: "Chaleureusement,\nL'équipe {{event}}",
  order_confirmation_subject_en: "Your seats for {{event}}, {{name}}",
  order_confirmation_subject_fr: "Vos places pour {{event}}, {{name}}",
  order_confirmation_body_en: "Dear {{name}}, order {{reference}} ({{total}}) is ours too.",
  order_confirmation_body_fr: "Chère personne {{name}}, la commande {{reference}} ({{total}}) est confirmée.",
  payment_reminder_subject_en: "Please pay {{reference}}",
  payment_reminder_subject_fr: "Merci de payer {{reference}}",
};

describe.each(DRIVERS)("communication (%s)", (driver) => {
  const ctx = useTestContext(driver);

  async function eventWithTexts() {
    const sale = await createOnSaleEvent(ctx, { stock: 20, price: 4000, status: "draft" });
    const token = await loginAs(ctx, sale.email, sale.password);
    const saved = await ctx.call("PUT", `/events/${sale.event.id}/communication`, { token, body: TEXTS });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await writeEventRow(ctx, sale.event.id, { status: "public", isPointOfSaleEnabled: true });
    return { sale, token };
  }

  const mailsOf = (kind: "order_confirmation" | "payment_reminder", to: string) =>
    ctx.database.db
      .select()
      .from(schema.mailOutbox)
      .where(and(eq(schema.mailOutbox.kind, kind), eq(schema.mailOutbox.to, to)))
      .all();

  it("sends each buyer the confirmation in their language, with the event's signature, sender name and reply-to", async () => {
    const { sale } = await eventWithTexts();
    const english = await readyBuyer(ctx, sale, { billing: { email: "ada@example.org" } });
    const french = await readyBuyer(ctx, sale, { billing: { email: "zoe@example.org", first_name: "Zoé" } });
    for (const [buyer, language] of [
      [english, "en"],
      [french, "fr"],
    ] as const) {
      const checkout = await checkOut(ctx, buyer, "online", language);
      await payOnDemoPage(ctx, checkout.body.payment_url);
    }
    const [toAda] = await mailsOf("order_confirmation", "ada@example.org");
    const [toZoe] = await mailsOf("order_confirmation", "zoe@example.org");
    if (!toAda || !toZoe) throw new Error("no confirmation queued");
    const context = { database: ctx.database, config: ctx.config };
    const adaMail = await renderMail(context, toAda);
    const zoeMail = await renderMail(context, toZoe);
    expect(adaMail.subject).toBe(`Your seats for ${sale.event.frontendTitle}, Ada Lovelace`);
    expect(adaMail.text).toMatch(/^Dear Ada Lovelace, order \w+ \(CHF\s40\.00\) is ours too\./);
    expect(adaMail.text).toContain(`Warm regards,\nThe ${sale.event.frontendTitle} crew`);
    expect(zoeMail.subject).toBe(`Vos places pour ${sale.event.frontendTitle}, Zoé Lovelace`);
    expect(zoeMail.text).toMatch(/^Chère personne Zoé Lovelace, la commande \w+ \(40\.00\sCHF\) est confirmée\./);
    expect(zoeMail.text).toContain(`Chaleureusement,\nL'équipe ${sale.event.frontendTitle}`);
    expect(zoeMail.html).toContain("Chaleureusement,<br>L&#39;équipe");

    // As delivered: the platform's address under the event's name, answers to the organiser.
    const transport = createMailTransport({ ...ctx.config, smtpUrl: undefined, logMails: false });
    await transport.send(
      { ...zoeMail, id: toZoe.id, kind: toZoe.kind, to: toZoe.to, messageId: "<t@x>" },
      AbortSignal.timeout(10_000),
    );
    const directory = join(ctx.dataDir, "mail");
    const file = readdirSync(directory).find((name) => name.includes(`-${toZoe.id}-`));
    const eml = readFileSync(join(directory, file as string), "utf8");
    expect(eml).toMatch(/^From: Winter Ball team <no-reply@example\.org>$/m);
    expect(eml).toMatch(/^Reply-To: hello@winterball\.example$/m);
  });

  it("sends the payment reminder with the organiser's subject in the buyer's language, ours where none is written", async () => {
    const { sale, token } = await eventWithTexts();
    const french = await readyBuyer(ctx, sale, { billing: { email: "remi@example.org" } });
    await checkOut(ctx, french, "point_of_sale", "fr");
    const [reminder] = await mailsOf("payment_reminder", "remi@example.org");
    if (!reminder) throw new Error("no reminder queued");
    const mail = await renderMail({ database: ctx.database, config: ctx.config }, reminder);
    expect(mail.subject).toMatch(/^Merci de payer \w+$/);
    // No French body was written: ours, then the organiser's French signature.
    expect(mail.text).toContain("n'a pas encore été payée");
    expect(mail.text).toContain("Chaleureusement,");
    // Emptied in French, the organiser's English is sent rather than ours (issue 34); emptied in both, ours.
    await writeEventRow(ctx, sale.event.id, { status: "draft" });
    const emptied = await ctx.call("PUT", `/events/${sale.event.id}/communication`, {
      token,
      body: { payment_reminder_subject_fr: "  " },
    });
    expect(emptied.body.payment_reminder_subject_fr).toBeNull();
    const english = await renderMail({ database: ctx.database, config: ctx.config }, reminder);
    expect(english.subject).toMatch(/^Please pay \w+$/);
    await ctx.call("PUT", `/events/${sale.event.id}/communication`, {
      token,
      body: { payment_reminder_subject_en: "" },
    });
    const again = await renderMail({ database: ctx.database, config: ctx.config }, reminder);
    expect(again.subject).toBe(`Votre commande pour ${sale.event.frontendTitle} attend son paiement`);
  });

  it("refuses a placeholder the text may not use, naming the field and the ones it may", async () => {
    const sale = await createOnSaleEvent(ctx, { stock: 5, status: "draft" });
    const token = await loginAs(ctx, sale.email, sale.password);
    const refused = await ctx.call("PUT", `/events/${sale.event.id}/communication`, {
      token,
      body: { order_confirmation_body_fr: "Bonjour {{nom}}", pdf_ticket_text_en: "Total {{ total }}" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.field_errors).toEqual({
      order_confirmation_body_fr:
        "Unknown placeholder {{nom}}: this text may use {{name}}, {{event}}, {{reference}}, {{total}}, {{event_date}}",
      pdf_ticket_text_en:
        "Unknown placeholder {{ total }}: this text may use {{name}}, {{event}}, {{reference}}, {{article}}",
    });
    const french = await ctx.call("PUT", `/events/${sale.event.id}/communication`, {
      token,
      body: { reply_to: "not an address", sender_name: "Eve <eve@evil.example>" },
      headers: FRENCH,
    });
    expect(french.status).toBe(400);
    expect(Object.keys(french.body.field_errors).sort()).toEqual(["reply_to", "sender_name"]);
    expect(
      (await ctx.call("GET", `/events/${sale.event.id}/communication`, { token })).body.order_confirmation_body_fr,
    ).toBeNull();
  });

  it("previews a mail from unsaved texts with the event's articles and a placeholder buyer, saving nothing", async () => {
    const { sale, token } = await eventWithTexts();
    const preview = await ctx.call("POST", `/events/${sale.event.id}/communication/mail-preview`, {
      token,
      body: {
        ...TEXTS,
        id: 1,
        event_id: sale.event.id,
        order_confirmation_subject_fr: "Aperçu pour {{name}}",
        order_confirmation_body_fr: "Votre commande <{{reference}}> : {{total}}",
        mail: "order_confirmation",
        language: "fr",
      },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.subject).toBe("Aperçu pour Camille Exemple");
    expect(preview.body.text).toMatch(/^Votre commande <SAMPLE-0000> : 80\.00\sCHF/);
    expect(preview.body.text).toMatch(/2 × Entry : 80\.00\sCHF/);
    expect(preview.body.html).toContain("Votre commande &#60;SAMPLE-0000&#62;");
    // As it will be sent: no test notice, and the reminder too.
    expect(preview.body.text).not.toContain("test");
    const reminder = await ctx.call("POST", `/events/${sale.event.id}/communication/mail-preview`, {
      token,
      body: { mail: "payment_reminder", language: "en" },
    });
    expect(reminder.body.subject).toBe("Please pay SAMPLE-0000");
    const saved = await ctx.call("GET", `/events/${sale.event.id}/communication`, { token });
    expect(saved.body.order_confirmation_subject_fr).toBe(TEXTS.order_confirmation_subject_fr);
    // The sample's articles by their French titles in a French preview (issue 34).
    const configurations = schema.nodeConfigurations;
    await ctx.database.db
      .update(configurations)
      .set({ titleFr: "Entrée" })
      .where(and(eq(configurations.eventId, sale.event.id), eq(configurations.title, "Entry")));
    const french = await ctx.call("POST", `/events/${sale.event.id}/communication/mail-preview`, {
      token,
      body: { mail: "order_confirmation", language: "fr" },
    });
    expect(french.body.text).toMatch(/2 × Entrée : 80\.00\sCHF/);
  });

  it("renders the PDF ticket preview, and 404s every preview and test for an outsider", async () => {
    const { sale, token } = await eventWithTexts();
    const pdf = await ctx.app.request(`/api/v1/events/${sale.event.id}/communication/pdf-ticket-preview`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ pdf_ticket_text_fr: "Portes à 19 h, {{name}}", language: "fr" }),
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe("%PDF");
    const outsider = await signedInUser(ctx, "outsider");
    for (const path of ["mail-preview", "pdf-ticket-preview", "test-mail"]) {
      const answer = await ctx.call("POST", `/events/${sale.event.id}/communication/${path}`, {
        token: outsider.token,
        body: { mail: "order_confirmation" },
      });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
  });

  it("sends a test mail with the saved texts to the organiser's own address, through the outbox, marked as a test", async () => {
    const { sale, token } = await eventWithTexts();
    const sent = await ctx.call("POST", `/events/${sale.event.id}/communication/test-mail`, {
      token,
      body: { mail: "order_confirmation", language: "fr" },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toEqual({ to: sale.email, mail: "order_confirmation" });
    const [queued, ...more] = await mailsOf("order_confirmation", sale.email);
    expect(more).toEqual([]);
    expect(queued).toMatchObject({ language: "fr", payload: { event_id: sale.event.id, is_test: true } });
    const mail = await renderMail({ database: ctx.database, config: ctx.config }, queued as NonNullable<typeof queued>);
    expect(mail.subject).toBe(`[Test] Vos places pour ${sale.event.frontendTitle}, Camille Exemple`);
    expect(mail.text).toMatch(/^Ceci est un e-mail de test/);
    expect(mail.text).toContain("Chère personne Camille Exemple");
    // Two sample tickets, each marked as a preview.
    expect(mail.attachments).toHaveLength(1);
    expect(mail.sender).toEqual({ name: TEXTS.sender_name, replyTo: TEXTS.reply_to });
  });
});

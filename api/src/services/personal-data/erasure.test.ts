// A buyer's personal data (issue 35, docs/decisions/0046): support exports everything held about one email and
// erases it; then the buyer appears nowhere but in invoice amounts, in any table (every column of every table is
// read, so a table added later is covered), export, PDF or mail, while another buyer's data is untouched, and a unit
// owner's erasure leaves the buyer's data in another unit.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, run, schema } from "@ticketing/db";
import { beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, download, FRENCH, signedInMember, signedInUser, useTestContext } from "../../test-support.ts";
import { deliverPendingMails } from "../mail/delivery.ts";
import { recordingTransport } from "../mail/mail.fixtures.ts";
import { hasCommand } from "../tickets/tickets.fixtures.ts";
import {
  BUYER,
  buyerWorld,
  downloaded,
  EMAIL,
  invoicesOf,
  NEEDLES,
  OTHER,
  placesHolding,
  TYPED,
  xlsxText,
} from "./personal-data.fixtures.ts";

const query = (email: string, extra = "") => `/personal-data?email=${encodeURIComponent(email)}${extra}`;
const lower = (text: string) => text.toLowerCase();
const held = (text: string) => NEEDLES.filter((needle) => lower(text).includes(needle));

describe.each(DRIVERS)("a buyer's personal data (%s)", (driver) => {
  const ctx = useTestContext(driver);
  let world: Awaited<ReturnType<typeof buyerWorld>>;
  let support: string;
  let before: Awaited<ReturnType<typeof invoicesOf>>;
  const buyerBaskets = () => Object.values(world.baskets);

  async function pdfText(path: string, token: string, name: string) {
    const pdf = await downloaded(ctx, path, token);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    if (!hasCommand("pdftotext")) return "";
    const file = join(ctx.dataDir, `${name}.pdf`);
    writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-raw", file, "-"]).toString();
  }

  beforeAll(async () => {
    world = await buyerWorld(ctx);
    support = (await signedInUser(ctx, "support", { isSuperuser: true })).token;
    before = await invoicesOf(ctx.database, buyerBaskets());
  });

  it("exports what is held, per event, as JSON and csv; an owner sees their unit's events alone", async () => {
    // The walk of every table sees the buyer where the product keeps them.
    const places = await placesHolding(ctx.database, NEEDLES);
    for (const column of [
      "billing_information.email",
      "billing_information.address",
      "selected_node_extra_infos.value",
      "frontend_logins.username",
      "waiting_list_entries.email",
      "mail_outbox.to",
      "invoices.reason",
      "rate_limits.key",
    ])
      expect(
        places.some((place) => place.startsWith(`${column} `)),
        column,
      ).toBe(true);
    const all = await ctx.call("GET", query(TYPED), { token: support });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.found).toBe(true);
    expect(all.body.unit_ids).toBeNull();
    expect(all.body.events.map((event: { id: number }) => event.id)).toEqual([world.a.event.id, world.b.event.id]);
    expect(all.body.counts).toMatchObject({ basket: 4, invoice: 5, check_in: 1, waiting_list_entry: 1 });
    expect(all.body.counts.form_answer).toBe(8);
    expect(all.body.counts.mail).toBeGreaterThanOrEqual(5);
    const kinds = new Set(all.body.records.map((record: { kind: string }) => record.kind));
    for (const kind of ["billing_information", "basket_line", "invoice_line", "payment", "login", "session"])
      expect(kinds).toContain(kind);
    const text = JSON.stringify(all.body);
    for (const value of [BUYER.last_name, BUYER.address, BUYER.city, "Zephyrine Badgeword", "+41 79 555 01 23"])
      expect(text).toContain(value);
    expect(text).not.toContain(OTHER.last_name);

    const csv = await download(ctx, query(EMAIL, "&format=csv"), support, FRENCH);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = Buffer.from(await csv.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").split("\r\n");
    expect(lines[0]).toBe("type,ligne,événement,champ,valeur");
    expect(lines.some((line) => line.endsWith(",lastName,Quorrabelle"))).toBe(true);

    const owner = await ctx.call("GET", query(EMAIL), { token: world.staffA });
    expect(owner.body.unit_ids).toEqual([world.a.organiser.personalUnitId]);
    expect(owner.body.events.map((event: { id: number }) => event.id)).toEqual([world.a.event.id]);
    expect(owner.body.counts.waiting_list_entry ?? 0).toBe(0);
  });

  it("refuses bad input, members and a confirmation that differs; nothing held is an answer", async () => {
    expect((await ctx.call("GET", query("not an email"), { token: support })).status).toBe(400);
    expect((await ctx.call("GET", query(EMAIL, "&format=pdf"), { token: support })).status).toBe(400);
    const member = await signedInMember(ctx, world.a.organiser.personalUnitId as number);
    const unit = `&unit_id=${world.a.organiser.personalUnitId}`;
    expect((await ctx.call("GET", query(EMAIL, unit), { token: member.token })).status).toBe(403);
    const wrong = await ctx.call("POST", "/personal-data/erasures", {
      token: support,
      body: { email: EMAIL, confirmation: "someone.else@example.org" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field_errors?.confirmation).toBeTruthy();
    const nobody = "nobody-here@example.org";
    expect((await ctx.call("GET", query(nobody), { token: support })).body).toMatchObject({
      found: false,
      records: [],
    });
    const none = await ctx.call("POST", "/personal-data/erasures", {
      token: support,
      body: { email: nobody, confirmation: nobody },
    });
    expect(none.status).toBe(201);
    expect(none.body).toMatchObject({ found: false, event_ids: [] });
  });

  it("lets an owner erase their unit's part alone: another unit keeps the buyer's data", async () => {
    const erased = await ctx.call("POST", "/personal-data/erasures", {
      token: world.staffA,
      body: { email: TYPED, confirmation: EMAIL },
    });
    expect(erased.status, JSON.stringify(erased.body)).toBe(201);
    expect(erased.body.event_ids).toEqual([world.a.event.id]);
    expect(erased.body.counts).toMatchObject({ basket: 3, invoice: 4, check_in: 1 });
    const left = await ctx.call("GET", query(EMAIL), { token: support });
    expect(left.body.events.map((event: { id: number }) => event.id)).toEqual([world.b.event.id]);
    const entry = await ctx.database.db
      .select()
      .from(schema.waitingListEntries)
      .where(eq(schema.waitingListEntries.id, world.entryId))
      .get();
    expect(entry).toMatchObject({ email: lower(EMAIL), state: "waiting" });
    const bBilling = await ctx.call("GET", `/baskets/${world.baskets.inB}`, { token: world.staffB });
    expect(bBilling.body.billing_information).toMatchObject({ last_name: BUYER.last_name, city: BUYER.city });
  });

  it("erases the rest: the buyer appears nowhere but in invoice amounts, the other buyer untouched", async () => {
    const erased = await ctx.call("POST", "/personal-data/erasures", {
      token: support,
      body: { email: EMAIL, confirmation: TYPED },
    });
    expect(erased.status, JSON.stringify(erased.body)).toBe(201);
    expect(erased.body.found).toBe(true);
    expect(erased.body.event_ids).toContain(world.b.event.id);

    // After the erasure, mail to the buyer is never sent: the one queued, and one asked now.
    const again = await ctx.call("POST", `/baskets/${world.baskets.paid}/confirmation-mail`, {
      token: world.staffA,
      body: {},
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const transport = recordingTransport();
    await deliverPendingMails(ctx.database, transport, ctx.config);
    expect(transport.sent.flatMap((mail) => held(`${mail.to}\n${mail.subject}\n${mail.text ?? ""}`))).toEqual([]);
    expect(transport.sent.filter((mail) => mail.to.endsWith("@erased.invalid"))).toEqual([]);

    // Every column of every table.
    expect(await placesHolding(ctx.database, NEEDLES)).toEqual([]);
    expect(await invoicesOf(ctx.database, buyerBaskets())).toEqual(before);
    const others = await placesHolding(ctx.database, [lower(OTHER.email), lower(OTHER.last_name)]);
    expect(others.some((place) => place.startsWith("billing_information.last_name"))).toBe(true);

    // The exports, csv and xlsx.
    const lists = [
      ["baskets", world.a.event.id],
      ["participants", world.a.event.id],
      ["invoices", world.a.event.id],
      ["check-ins", world.a.event.id],
      ["waiting-list", world.b.event.id],
      ["baskets", world.b.event.id],
    ] as const;
    for (const [list, eventId] of lists) {
      const filter = encodeURIComponent(JSON.stringify({ event_id: eventId }));
      const csv = (await downloaded(ctx, `/exports/${list}?format=csv&filter=${filter}`, support)).toString("utf8");
      expect(held(csv), `${list} csv`).toEqual([]);
      const xlsx = await xlsxText(await downloaded(ctx, `/exports/${list}?format=xlsx&filter=${filter}`, support));
      expect(held(xlsx), `${list} xlsx`).toEqual([]);
      if (list === "participants") expect(csv).toContain("Otto");
    }

    // The invoice and ticket PDFs, the basket's page.
    const invoice = before.invoices[0]?.id as number;
    const english = await pdfText(`/invoices/${invoice}/pdf?language=en`, support, "invoice-en");
    const french = await pdfText(`/invoices/${invoice}/pdf?language=fr`, support, "invoice-fr");
    const tickets = await pdfText(`/baskets/${world.baskets.paid}/tickets`, support, "tickets");
    for (const text of [english, french, tickets]) expect(held(text)).toEqual([]);
    if (english) {
      expect(english.replace(/\s+/g, " ")).toMatch(/Personal data erased on .+ at the buyer's request/);
      expect(french.replace(/\s+/g, " ")).toMatch(/Données personnelles effacées le .+ à la demande de l'acheteur/);
      expect(english).toContain("90.00");
    }
    const page = await ctx.call("GET", `/baskets/${world.baskets.paid}`, { token: support });
    expect(held(JSON.stringify(page.body))).toEqual([]);
    expect(page.body.billing_information.erased_at).toBeTruthy();
    const detail = await ctx.call("GET", `/invoices/${invoice}`, { token: support });
    expect(detail.body.billing_information.erased_at).toBeTruthy();
    expect(detail.body.amount).toBe(before.invoices[0]?.amount);
  });

  it("finds nothing left, erases again harmlessly, and keeps a record of each erasure without the email", async () => {
    const left = await ctx.call("GET", query(EMAIL), { token: support });
    expect(left.body).toMatchObject({ found: false, events: [], records: [] });
    const again = await ctx.call("POST", "/personal-data/erasures", {
      token: support,
      body: { email: EMAIL, confirmation: EMAIL },
    });
    expect(again.status).toBe(201);
    expect(again.body.found).toBe(false);
    expect(await placesHolding(ctx.database, NEEDLES)).toEqual([]);

    const records = await ctx.call("GET", `/personal-data/erasures?email=${encodeURIComponent(TYPED)}`, {
      token: support,
    });
    expect(records.status).toBe(200);
    expect(records.body).toHaveLength(3);
    expect(records.body[2]).toMatchObject({ event_ids: [world.a.event.id], counts: { basket: 3 } });
    expect(records.body[2].unit_ids).toEqual([world.a.organiser.personalUnitId]);
    // Unit B's owner sees the erasure that changed their event, not unit A's.
    const owners = await ctx.call("GET", "/personal-data/erasures", { token: world.staffB });
    expect(owners.body.map((record: { id: number }) => record.id)).toEqual([records.body[1].id]);
  });

  it("never sends a mail written to an erased address by another path (the waiting list's offers are SQL)", async () => {
    const mail = await ctx.database.transaction(function* (tx) {
      return yield* run(
        tx
          .insert(schema.mailOutbox)
          .values({ kind: "waiting_list_offer", to: "erased-entry-7@erased.invalid", payload: { entry_id: 7 } })
          .returning()
          .get(),
      );
    });
    const transport = recordingTransport();
    await deliverPendingMails(ctx.database, transport, ctx.config);
    expect(transport.sent).toEqual([]);
    const row = await ctx.database.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.id, mail.id)).get();
    expect(row?.status).toBe("cancelled");
  });
});

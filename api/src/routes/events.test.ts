import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../services/accounts/sessions.ts";
import { createTestContext, loginAs, type TestContext, writeCommunicationRow, writeEventRow } from "../test-support.ts";

const PASSWORD = "correct-horse-battery-1!";

describe("moderation and the edit lock", () => {
  let ctx: TestContext;
  let organiser: string;
  let moderator: string;
  let unitId: number;
  beforeAll(async () => {
    ctx = await createTestContext();
    unitId = (await createUser(ctx.database, { email: "org@example.org", password: PASSWORD }))
      .personalUnitId as number;
    await createUser(ctx.database, { email: "mod@example.org", password: PASSWORD, isSuperuser: true });
    organiser = await loginAs(ctx, "org@example.org", PASSWORD);
    moderator = await loginAs(ctx, "mod@example.org", PASSWORD);
  });
  afterAll(async () => ctx.close());

  const newEvent = async (path: string) =>
    (
      await ctx.call("POST", "/events", {
        token: organiser,
        body: {
          unit_id: unitId,
          name: "Gala",
          frontend_title: "Gala",
          frontend_path: path,
          start_date: "2030-05-01T18:00:00Z",
          end_date: "2030-05-01T23:00:00Z",
        },
      })
    ).body;

  it("goes public only after a moderator validated it; change requests need a description and reach the organiser", async () => {
    const event = await newEvent("gala");
    const early = await ctx.call("PUT", `/events/${event.id}`, { token: organiser, body: { status: "public" } });
    expect(early).toMatchObject({
      status: 409,
      body: { errors: ["The event must be validated by a moderator before it goes public"] },
    });
    expect(
      (await ctx.call("POST", `/events/${event.id}/moderation/request`, { token: organiser, body: {} })).body
        .moderation_status,
    ).toBe("requested");
    expect(
      (await ctx.call("POST", `/events/${event.id}/moderation/approve`, { token: organiser, body: {} })).status,
    ).toBe(403);
    const noReason = await ctx.call("POST", `/events/${event.id}/moderation/request-changes`, {
      token: moderator,
      body: { description: " " },
    });
    expect(noReason).toMatchObject({
      status: 400,
      body: { field_errors: { description: "Describe the changes you request" } },
    });
    await ctx.call("POST", `/events/${event.id}/moderation/request-changes`, {
      token: moderator,
      body: { description: "Add the venue's address" },
    });
    const seen = await ctx.call("GET", `/events/${event.id}`, { token: organiser });
    expect(seen.body).toMatchObject({
      moderation_status: "change_requested",
      moderation_description: "Add the venue's address",
    });
    await ctx.call("POST", `/events/${event.id}/moderation/request`, { token: organiser, body: {} });
    expect(
      (await ctx.call("POST", `/events/${event.id}/moderation/approve`, { token: moderator, body: {} })).body
        .moderation_status,
    ).toBe("validated");
    expect(
      (await ctx.call("PUT", `/events/${event.id}`, { token: organiser, body: { status: "public" } })).body.status,
    ).toBe("public");
    expect(
      (await ctx.call("POST", `/events/${event.id}/moderation/approve`, { token: moderator, body: {} })).status,
    ).toBe(409);
  });

  it("locks a public event's fields and elements for its organiser, not its status; superusers may still edit", async () => {
    const event = await newEvent("concert");
    await ctx.call("POST", `/events/${event.id}/moderation/request`, { token: organiser, body: {} });
    await ctx.call("POST", `/events/${event.id}/moderation/approve`, { token: moderator, body: {} });
    await ctx.call("PUT", `/events/${event.id}`, { token: organiser, body: { status: "public" } });
    const rename = await ctx.call("PUT", `/events/${event.id}`, { token: organiser, body: { name: "Renamed" } });
    expect(rename.status).toBe(409);
    expect(rename.body.errors[0]).toBe(
      "Editing is locked because the event is not a draft. A public event can be set back to draft to change it: its changes then need the moderators' approval again before it goes public. Otherwise contact support@example.org.",
    );
    // The whole record sent back unchanged, with only the status moved, is accepted.
    expect(
      (
        await ctx.call("PUT", `/events/${event.id}`, {
          token: organiser,
          body: { ...event, status: "closed", moderation_status: "validated" },
        })
      ).body.status,
    ).toBe("closed");
    expect(
      (
        await ctx.call("POST", `/events/${event.id}/articles`, {
          token: organiser,
          body: { title: "Seat", price: 100, stock: 1 },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await ctx.call("POST", `/events/${event.id}/articles`, {
          token: moderator,
          body: { title: "Seat", price: 100, stock: 1 },
        })
      ).status,
    ).toBe(201);
    expect((await ctx.call("PUT", `/events/${event.id}`, { token: organiser, body: { status: "draft" } })).status).toBe(
      409,
    );
    expect((await ctx.call("GET", "/config")).body).toEqual({ support_email: "support@example.org" });
  });

  it("gives a public event's infos by its path in any case, with its module and access methods, read afresh each time", async () => {
    const event = await newEvent("Summer-Fest");
    const infos = (path: string) => ctx.call("GET", `/events/public-infos?path=${path}`);
    expect((await infos("summer-fest")).status).toBe(404);
    await ctx.call("POST", `/events/${event.id}/moderation/request`, { token: organiser, body: {} });
    await ctx.call("POST", `/events/${event.id}/moderation/approve`, { token: moderator, body: {} });
    await ctx.call("PUT", `/events/${event.id}`, { token: organiser, body: { status: "public" } });
    const seen = await infos("SUMMER-fest");
    expect(seen.body).toMatchObject({ id: event.id, access_methods: event.access_methods });
    expect(seen.body.registration_module_id).toEqual(expect.any(Number));
    await ctx.call("PUT", `/events/${event.id}`, {
      token: moderator,
      body: { access_methods: ["anonymous", "trusted_email"] },
    });
    expect((await infos("summer-fest")).body.access_methods).toEqual(["anonymous", "trusted_email"]);
    await ctx.call("PUT", `/events/${event.id}`, { token: organiser, body: { status: "closed" } });
    expect((await infos("summer-fest")).body.id).toBe(event.id);
    await ctx.call("PUT", `/events/${event.id}`, { token: moderator, body: { status: "draft" } });
    expect((await infos("summer-fest")).status).toBe(404);
  });

  it("locks the communication settings but their texts once approved and public; superusers may still edit", async () => {
    const event = await newEvent("recital");
    const edit = (token: string, body: object) => ctx.call("PUT", `/events/${event.id}/communication`, { token, body });
    expect((await edit(organiser, { confirmation_page_text_en: "Before approval" })).status).toBe(200);
    await ctx.call("POST", `/events/${event.id}/moderation/request`, { token: organiser, body: {} });
    await ctx.call("POST", `/events/${event.id}/moderation/approve`, { token: moderator, body: {} });
    await ctx.call("PUT", `/events/${event.id}`, { token: organiser, body: { status: "public" } });
    // Where buyers are sent after paying is not a text: locked (ADR 0031).
    const after = await edit(organiser, { confirmation_redirect_url: "https://example.org/elsewhere" });
    expect(after.status).toBe(409);
    expect(after.body.errors[0]).toBe(
      "Editing is locked because the event is not a draft. A public event can be set back to draft to change it: its changes then need the moderators' approval again before it goes public. Otherwise contact support@example.org.",
    );
    const french = await ctx.call("PUT", `/events/${event.id}/communication`, {
      token: organiser,
      body: { reply_to: "x@example.org" },
      headers: { "accept-language": "fr" },
    });
    expect(french.body.errors[0]).toMatch(/brouillon/);
    // The page's text may be fixed while on sale (it goes back to the moderators), and by support.
    expect((await edit(organiser, { confirmation_page_text_en: "Fixed while on sale" })).status).toBe(200);
    expect((await ctx.call("GET", `/frontend/events/${event.id}/confirmation-page`)).body.text).toBe(
      "Fixed while on sale",
    );
    expect((await edit(moderator, { confirmation_redirect_url: "https://example.org/thanks" })).status).toBe(200);
    const page = await ctx.call("GET", `/frontend/events/${event.id}/confirmation-page`);
    expect(page.body.redirect_url).toBe("https://example.org/thanks");
  });
});

describe("communication settings", () => {
  it("keeps the confirmation page's text in each language and its redirect address, shown to buyers; refuses a relative address", async () => {
    const ctx = await createTestContext();
    const user = await createUser(ctx.database, { email: "c@example.org", password: PASSWORD });
    const token = await loginAs(ctx, "c@example.org", PASSWORD);
    const event = await ctx.call("POST", "/events", {
      token,
      body: {
        unit_id: user.personalUnitId,
        name: "C",
        frontend_title: "C",
        frontend_path: "c",
        start_date: "2030-01-01T10:00:00Z",
        end_date: "2030-01-01T12:00:00Z",
      },
    });
    for (const address of [
      "/thanks",
      "javascript:alert(document.cookie)",
      "data:text/html,<script>alert(1)</script>",
      "http://example.org/thanks",
      "https://",
      "ftp://example.org/thanks",
    ]) {
      const bad = await ctx.call("PUT", `/events/${event.body.id}/communication`, {
        token,
        body: { confirmation_redirect_url: address },
      });
      expect({ address, status: bad.status, errors: bad.body.errors }).toEqual({
        address,
        status: 400,
        errors: ["Enter a full address starting with https://"],
      });
    }
    const saved = await ctx.call("PUT", `/events/${event.body.id}/communication`, {
      token,
      body: {
        confirmation_page_text_en: "See you at {{event}}!",
        confirmation_page_text_fr: "À bientôt !",
        confirmation_redirect_url: "https://example.org/thanks",
      },
    });
    expect(saved.body).toMatchObject({
      confirmation_page_text_en: "See you at {{event}}!",
      confirmation_redirect_url: "https://example.org/thanks",
    });
    const page = await ctx.call("GET", `/frontend/events/${event.body.id}/confirmation-page`);
    expect(page.body).toEqual({ text: "See you at C!", redirect_url: "https://example.org/thanks" });
    const french = await ctx.call("GET", `/frontend/events/${event.body.id}/confirmation-page`, {
      headers: { "accept-language": "fr" },
    });
    expect(french.body.text).toBe("À bientôt !");
    // No French text: a French buyer reads the organiser's English rather than nothing, the event named in French.
    await writeCommunicationRow(ctx, event.body.id, { confirmationPageTextFr: "" });
    await writeEventRow(ctx, event.body.id, { frontendTitleFr: "Ç" });
    const fallback = await ctx.call("GET", `/frontend/events/${event.body.id}/confirmation-page`, {
      headers: { "accept-language": "fr" },
    });
    expect(fallback.body.text).toBe("See you at Ç!");
    expect((await ctx.call("GET", `/frontend/events/${event.body.id}/confirmation-page`)).body.text).toBe(
      "See you at C!",
    );
    // An address stored before they were checked is never handed to the ticket office.
    // The row is changed directly, as an old database would hold it.
    await writeCommunicationRow(ctx, event.body.id, { confirmationRedirectUrl: "javascript:alert(1)" });
    const old = await ctx.call("GET", `/frontend/events/${event.body.id}/confirmation-page`);
    expect(old.body.redirect_url).toBeNull();
    await ctx.close();
  });
});

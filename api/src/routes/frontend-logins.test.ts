import { OFF_SITE_TARGETS, ON_SITE_TARGETS } from "@ticketing/shared/site-path.fixtures";
import { sign } from "hono/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestTrustedEmailLogin } from "../services/buyers/logins.ts";
import {
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  DRIVERS,
  lastMail,
  lastMailTo,
  loginAs,
  type TestContext,
} from "../test-support.ts";

describe.each(DRIVERS)("ticket-office logins by trusted email and third-party token (%s)", (driver) => {
  let ctx: TestContext;
  let sale: Awaited<ReturnType<typeof createOnSaleEvent>>;
  let superuser: string;
  beforeAll(async () => {
    ctx = await createTestContext(driver);
    sale = await createOnSaleEvent(ctx, { stock: 10 });
    const { createUser } = await import("../services/accounts/sessions.ts");
    await createUser(ctx.database, {
      email: `root-${driver}@example.org`,
      password: "correct-horse-battery-1!",
      isSuperuser: true,
    });
    superuser = await loginAs(ctx, `root-${driver}@example.org`, "correct-horse-battery-1!");
  });
  afterAll(async () => ctx.close());

  const enable = (methods: string[]) =>
    ctx.call("PUT", `/events/${sale.event.id}`, { token: superuser, body: { access_methods: methods } });

  it("refuses a login method the event does not offer", async () => {
    const response = await ctx.call("POST", "/auth/trusted-email-login", {
      body: { active_module_id: sale.moduleId, email: "buyer@example.org" },
    });
    expect(response).toMatchObject({
      status: 409,
      body: { errors: ["This login method is not enabled for the event"] },
    });
    expect((await enable([])).status).toBe(400);
  });

  it("signs in through the emailed link once; the same email keeps one login", async () => {
    await enable(["anonymous", "trusted_email"]);
    const requested = await ctx.call("POST", "/auth/trusted-email-login", {
      body: { active_module_id: sale.moduleId, email: "Buyer@Example.org", next_url: "/tickets/x/buy" },
    });
    expect(requested.status).toBe(201);
    const mail = await lastMail(ctx, "trusted_email_login");
    expect(mail?.to).toBe("buyer@example.org");
    const link = new URL(String(mail?.payload.link));
    expect(link.pathname).toMatch(new RegExp(`^/tickets/${sale.event.frontendPath}/login/verify/\\d+/[\\w-]+$`));
    expect(link.searchParams.get("nextUrl")).toBe("/tickets/x/buy");
    const [loginPk, validationToken] = link.pathname.split("/").slice(-2);
    const body = { active_module_id: sale.moduleId, login_pk: Number(loginPk), validation_token: validationToken };
    const validated = await ctx.call("POST", "/auth/trusted-email-login/validate", { body });
    expect(validated.status).toBe(200);
    expect(validated.body.login.email).toBe("buyer@example.org");
    const basket = await ctx.call("POST", "/frontend/baskets", {
      token: validated.body.access_token,
      body: { event_id: sale.event.id },
    });
    expect(basket.status).toBe(201);
    const again = await ctx.call("POST", "/auth/trusted-email-login/validate", { body });
    expect(again).toMatchObject({ status: 400, body: { errors: ["Could not validate email, please try again"] } });
    await ctx.call("POST", "/auth/trusted-email-login", {
      body: { active_module_id: sale.moduleId, email: "buyer@example.org" },
    });
    const second = await lastMail(ctx, "trusted_email_login");
    expect(new URL(String(second?.payload.link)).pathname.split("/").at(-2)).toBe(loginPk);
  });

  const lastLoginLink = async (to: string) => {
    const mail = await lastMailTo(ctx, to);
    return mail ? new URL(String(mail.payload.link)) : null;
  };

  it.each(OFF_SITE_TARGETS)(
    "refuses a next_url that leaves the site (%s), and mails nothing",
    async (label, target) => {
      await enable(["anonymous", "trusted_email"]);
      const to = `off-site-${OFF_SITE_TARGETS.findIndex(([l]) => l === label)}-${driver}@example.org`;
      const requested = await ctx.call("POST", "/auth/trusted-email-login", {
        body: { active_module_id: sale.moduleId, email: to, next_url: target },
      });
      expect(requested).toMatchObject({
        status: 400,
        body: { field_errors: { next_url: "Must be a path of this site" } },
      });
      expect(await lastLoginLink(to)).toBeNull();
    },
  );

  it.each(ON_SITE_TARGETS)("mails a link whose next_url is %s, normalised", async (label, target, normalised) => {
    await enable(["anonymous", "trusted_email"]);
    const to = `on-site-${ON_SITE_TARGETS.findIndex(([l]) => l === label)}-${driver}@example.org`;
    const requested = await ctx.call("POST", "/auth/trusted-email-login", {
      body: { active_module_id: sale.moduleId, email: to, next_url: target },
    });
    expect(requested.status).toBe(201);
    expect((await lastLoginLink(to))?.searchParams.get("nextUrl")).toBe(normalised);
  });

  it("builds the emailed link without a next_url that leaves the site, whoever calls the service", async () => {
    await enable(["anonymous", "trusted_email"]);
    const to = `service-${driver}@example.org`;
    for (const [, nextUrl] of OFF_SITE_TARGETS) {
      await requestTrustedEmailLogin(
        ctx.database,
        { event: sale.event, testing: false, email: to, nextUrl, userId: null, language: "en", publicUrl: "http://x" },
        new Date(),
      );
      const link = await lastLoginLink(to);
      expect(link?.pathname).toMatch(/\/login\/verify\/\d+\/[\w-]+$/);
      expect(link?.search).toBe("");
    }
  });

  it("signs in with a third party's token signed with the event's key, and refuses forged or expired ones", async () => {
    const event = await enable(["anonymous", "third_party"]);
    const key = event.body.third_party_secret_key as string;
    expect(key).toHaveLength(43);
    const publicInfos = await ctx.call("GET", `/events/public-infos?path=${sale.event.frontendPath}`);
    expect(JSON.stringify(publicInfos.body)).not.toContain(key);
    const exp = Math.floor(Date.now() / 1000) + 600;
    const good = await ctx.call("POST", "/auth/third-party-login", {
      body: { active_module_id: sale.moduleId, token: await sign({ email: "member@club.ch", exp }, key, "HS256") },
    });
    expect(good.status).toBe(200);
    expect(good.body.login).toMatchObject({ email: "member@club.ch" });
    const forged = await ctx.call("POST", "/auth/third-party-login", {
      body: {
        active_module_id: sale.moduleId,
        token: await sign({ email: "member@club.ch", exp }, "another-key", "HS256"),
      },
    });
    expect(forged).toMatchObject({ status: 400, body: { errors: ["Third-party authentication failed"] } });
    const expired = await ctx.call("POST", "/auth/third-party-login", {
      body: {
        active_module_id: sale.moduleId,
        token: await sign({ email: "member@club.ch", exp: exp - 1200 }, key, "HS256"),
      },
    });
    expect(expired.status).toBe(400);
    const noEmail = await ctx.call("POST", "/auth/third-party-login", {
      body: { active_module_id: sale.moduleId, token: await sign({ exp }, key, "HS256") },
    });
    expect(noEmail.status).toBe(400);
  });
});

describe("the caller's ticket-office logins by id", () => {
  it("reads ?id= as ids separated by commas, and refuses anything else with a 400", async () => {
    const ctx = await createTestContext();
    const sale = await createOnSaleEvent(ctx, { stock: 1 });
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    const mine = await ctx.call("GET", `/frontend-logins?id=${buyer.loginId},999`, { token: buyer.token });
    expect(mine.body.map((login: { id: number }) => login.id)).toEqual([buyer.loginId]);
    for (const id of ["0", `0${buyer.loginId}`, "0x1", "1e0", `${buyer.loginId},true`, `${buyer.loginId},`, "2e53"])
      expect(await ctx.call("GET", `/frontend-logins?id=${id}`, { token: buyer.token }), id).toMatchObject({
        status: 400,
        body: { errors: ["Expected ids separated by commas, each a whole number from 1: id=1,2"] },
      });
    expect((await ctx.call("GET", "/frontend-logins?id=9007199254740993", { token: buyer.token })).status).toBe(400);
    await ctx.close();
  });
});

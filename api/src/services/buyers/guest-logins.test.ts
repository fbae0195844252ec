// Guest sign-ins limited per address and per browser (docs/decisions/0036, issue 30: "200 anonymous logins from
// one address are not all accepted"); a caller who already holds a guest login gets it again, uncounted; the
// address is the one X-Forwarded-For names only when a proxy of TRUSTED_PROXIES sends it.
import { describe, expect, it } from "vitest";
import { createOnSaleEvent, DRIVERS, nextBuyerAddress, type TestContext, useTestContext } from "../../test-support.ts";

const signIn = (ctx: TestContext, moduleId: number, headers: Record<string, string> = {}, token?: string) =>
  ctx.call("POST", "/auth/anonymous-login", { token, body: { active_module_id: moduleId }, headers });

/** The device cookie an answer gives (name=value), for the browser's next request. */
const deviceCookieOf = (headers: Headers) => headers.getSetCookie()[0]?.split(";")[0] ?? "";

describe.each(DRIVERS)("guest sign-ins (%s)", (driver) => {
  const ctx = useTestContext(driver);

  it("accepts 50 new guests from one address in 10 minutes, not 200; another address still signs in", async () => {
    const { moduleId } = await createOnSaleEvent(ctx, { stock: 10 });
    const address = nextBuyerAddress();
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof signIn>> | undefined;
    for (let i = 0; i < 200; i++) {
      const answer = await signIn(ctx, moduleId, { "x-real-ip": address });
      statuses.push(answer.status);
      if (answer.status === 429) refused ??= answer;
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(150);
    expect(refused?.body.errors).toEqual(["Too many guest sign-ins from your network. Try again in 10 minutes."]);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(500);
    expect((await signIn(ctx, moduleId, { "x-real-ip": nextBuyerAddress() })).status).toBe(201);
  });

  it("gives a browser its device cookie at its first guest sign-in and accepts 10 per hour from it, wherever it is", async () => {
    const { moduleId } = await createOnSaleEvent(ctx, { stock: 10 });
    const first = await signIn(ctx, moduleId, { "x-real-ip": nextBuyerAddress() });
    expect(first.status).toBe(201);
    const cookies = first.headers.getSetCookie();
    expect(cookies.map((cookie) => cookie.match(/Path=([^;]+)/)?.[1])).toEqual([
      "/tickets",
      "/api/v1/auth/anonymous-login",
      "/api/v1/frontend/waiting-room",
    ]);
    expect(cookies[0]).toMatch(/HttpOnly/);
    const cookie = deviceCookieOf(first.headers);
    const answers = [];
    for (let i = 0; i < 9; i++) answers.push(await signIn(ctx, moduleId, { "x-real-ip": nextBuyerAddress(), cookie }));
    expect(answers.map((answer) => answer.status)).toEqual(Array(9).fill(201));
    // The browser keeps its cookie: no new one is given while it is valid.
    expect(answers.flatMap((answer) => answer.headers.getSetCookie())).toEqual([]);
    const refused = await signIn(ctx, moduleId, { "x-real-ip": nextBuyerAddress(), cookie, "accept-language": "fr" });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0]).toMatch(/navigateur/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
  });

  it("answers the caller's own guest login again, without counting it, and a new one for another event", async () => {
    const { moduleId } = await createOnSaleEvent(ctx, { stock: 10 });
    const other = await createOnSaleEvent(ctx, { stock: 10 });
    const address = nextBuyerAddress();
    const first = await signIn(ctx, moduleId, { "x-real-ip": address });
    const token = first.body.access_token as string;
    for (let i = 0; i < 60; i++) {
      const again = await signIn(ctx, moduleId, { "x-real-ip": address }, token);
      expect(again.status).toBe(201);
      expect(again.body.login.id).toBe(first.body.login.id);
    }
    const elsewhere = await signIn(ctx, other.moduleId, { "x-real-ip": address }, token);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.login.id).not.toBe(first.body.login.id);
  });
});

describe.each(DRIVERS)("the guest's address behind a proxy (%s)", (driver) => {
  const ctx = useTestContext(driver, { TRUSTED_PROXIES: "10.0.0.1" });

  /** A request as the server receives it, from `remote`, naming `forwardedFor`. */
  const fromSocket = async (moduleId: number, remote: string, forwardedFor: string) => {
    const response = await ctx.app.request(
      "/api/v1/auth/anonymous-login",
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ active_module_id: moduleId }),
      },
      { incoming: { socket: { remoteAddress: remote }, headers: { "x-forwarded-for": forwardedFor } } },
    );
    return response.status;
  };

  it("believes X-Forwarded-For from a trusted proxy only: spoofing it from elsewhere counts the sender's address", async () => {
    const { moduleId } = await createOnSaleEvent(ctx, { stock: 10 });
    // Through the trusted proxy, 60 guests from 60 addresses all sign in.
    const viaProxy = [];
    for (let i = 0; i < 60; i++) viaProxy.push(await fromSocket(moduleId, "10.0.0.1", `203.0.113.${i}`));
    expect(viaProxy.every((status) => status === 201)).toBe(true);
    // From an untrusted sender, the header is ignored: its own address is counted, and stops at 50.
    const spoofed = [];
    for (let i = 0; i < 60; i++) spoofed.push(await fromSocket(moduleId, "192.0.2.7", `203.0.113.${100 + i}`));
    expect(spoofed.filter((status) => status === 201)).toHaveLength(50);
    expect(spoofed.filter((status) => status === 429)).toHaveLength(10);
  });
});

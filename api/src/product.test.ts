// The ticket office calls the API in-process: those calls must carry the visitor's own address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessApiFetch } from "./product.ts";
import { createUser } from "./services/auth.ts";
import { createTestContext, type TestContext } from "./test-support.ts";

const PASSWORD = "correct-horse-battery-1!";
/** What @hono/node-server hands a request as its environment: the visitor's socket. */
const visitor = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

describe("the storefront's in-process API calls", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await createUser(ctx.database, { email: "owner@example.org", password: PASSWORD });
  });
  afterAll(async () => ctx.close());

  const signIn = (address: string, password: string) =>
    inProcessApiFetch(ctx.app, visitor(address))("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@example.org", password }),
    });

  it("count sign-in attempts per visitor: an attacker using the ticket office does not lock the owner out", async () => {
    for (let i = 0; i < 10; i++) expect((await signIn("203.0.113.66", "wrong-password-123")).status).toBe(400);
    const attacker = await signIn("203.0.113.66", PASSWORD);
    expect(attacker.status).toBe(429);
    // Every visitor counted as one address ("local") before: the owner then got 429 too.
    expect((await signIn("198.51.100.7", PASSWORD)).status).toBe(200);
  });
});

import { describe, expect, it } from "vitest";
import { ACCESS_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from "./tokens.ts";

const claims = { userId: null, frontendLoginIds: [7], sessionVersion: 0 };

describe("access tokens", () => {
  it("a token verified once is still refused after it expires", async () => {
    const issuedAt = Date.now();
    const token = await signAccessToken("secret-a", claims, issuedAt);
    expect(await verifyAccessToken("secret-a", token, issuedAt + 1_000)).toEqual(claims);
    expect(await verifyAccessToken("secret-a", token, issuedAt + 2_000)).toEqual(claims);
    expect(await verifyAccessToken("secret-a", token, issuedAt + ACCESS_TOKEN_SECONDS * 1000 + 1_000)).toBeNull();
  });

  it("a token verified with one secret is refused with another", async () => {
    const token = await signAccessToken("secret-a", claims);
    expect(await verifyAccessToken("secret-a", token)).toEqual(claims);
    expect(await verifyAccessToken("secret-b", token)).toBeNull();
  });

  it("a tampered token is refused", async () => {
    const token = await signAccessToken("secret-a", claims);
    const [header, , signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ typ: "access", fl: [1], exp: 4_000_000_000 })).toString("base64url");
    expect(await verifyAccessToken("secret-a", `${header}.${forged}.${signature}`)).toBeNull();
  });

  it("the claims one request reads cannot be changed by another", async () => {
    const token = await signAccessToken("secret-a", claims);
    const first = await verifyAccessToken("secret-a", token);
    expect(() => first?.frontendLoginIds.push(8)).toThrow(TypeError);
    expect((await verifyAccessToken("secret-a", token))?.frontendLoginIds).toEqual([7]);
  });
});

import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret } from "./secrets.ts";

const SECRET = "a-product-secret-of-at-least-32-characters";

describe("stored secrets", () => {
  it("gives back what was sealed, and never shows it in the sealed text", () => {
    const sealed = encryptSecret(SECRET, "sk_test_51Habc");
    expect(sealed).not.toContain("sk_test");
    expect(decryptSecret(SECRET, sealed)).toBe("sk_test_51Habc");
    expect(encryptSecret(SECRET, "sk_test_51Habc")).not.toBe(sealed);
  });

  it("refuses a text sealed with another product's secret, or altered", () => {
    const sealed = encryptSecret(SECRET, "whsec_123");
    expect(decryptSecret("another-product-secret-of-32-characters!", sealed)).toBeNull();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("whsec_999").toString("base64url");
    expect(decryptSecret(SECRET, parts.join("."))).toBeNull();
    expect(decryptSecret(SECRET, "not sealed")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { createTicketCode, newTicketSigningKey, ticketKeysOf, verifyTicketCode } from "./ticket-codes.ts";

/** A key pair of its own (the installation's comes from the environment or the database: env.test.ts). */
const freshKeys = () => ticketKeysOf(newTicketSigningKey());

const claims = { eventId: 12, basketId: 3456, itemId: 789012 };

describe("ticket codes", () => {
  it("round-trips the claims through a short URL-safe code", () => {
    const keys = freshKeys();
    const code = createTicketCode(keys, claims);
    expect(code).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(code.length).toBeLessThan(140);
    expect(verifyTicketCode(keys, code)).toEqual(claims);
  });

  it("verifies with the public key alone, as an offline scanner would", async () => {
    const keys = freshKeys();
    const { createPublicKey } = await import("node:crypto");
    const scanner = { publicKey: createPublicKey(keys.publicKeyPem) };
    expect(verifyTicketCode(scanner, createTicketCode(keys, claims))).toEqual(claims);
  });

  it("refuses a code with any single character changed", () => {
    const keys = freshKeys();
    const code = createTicketCode(keys, claims);
    for (let position = 0; position < code.length; position++) {
      const original = code[position];
      const replacement = original === "A" ? "B" : "A";
      const tampered = code.slice(0, position) + replacement + code.slice(position + 1);
      expect(verifyTicketCode(keys, tampered), `position ${position}`).toBeNull();
    }
  });

  it("refuses a code signed with another key", () => {
    const ours = freshKeys();
    const theirs = freshKeys();
    expect(verifyTicketCode(ours, createTicketCode(theirs, claims))).toBeNull();
  });

  it("refuses garbage without throwing", () => {
    const keys = freshKeys();
    const code = createTicketCode(keys, claims);
    const [payload = "", signature = ""] = code.split(".");
    for (const garbage of [
      "",
      ".",
      "abc",
      "a.b",
      "a.b.c",
      `${code}.`,
      `${code}A`,
      `${payload}.`,
      `.${signature}`,
      `${payload}==.${signature}`,
      `${Buffer.from("[1,2,3]").toString("base64url")}.${signature}`,
      "\u0000\uffff.\ud800",
    ]) {
      expect(verifyTicketCode(keys, garbage), garbage).toBeNull();
    }
  });
});

// The door's own check of a ticket code (docs/decisions/0048): what the API signs, the browser verifies with the
// public key the API hands out (WebCrypto Ed25519, Node's as the browser's); anything else is not a ticket.
import { generateKeyPairSync, sign } from "node:crypto";
import { decodeCanonical } from "@ticketing/shared/ticket-code";
import { describe, expect, it } from "vitest";
import { importTicketKey, verifyCode } from "./offlineCode.ts";

/** A key pair and a signer as the API's ticket-codes.ts makes codes. */
function instance() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const code = (claims: unknown) => {
    const payload = Buffer.from(JSON.stringify(claims));
    return `${payload.toString("base64url")}.${sign(null, payload, privateKey).toString("base64url")}`;
  };
  return { pem, code };
}

describe("verifyCode", () => {
  it("reads the event, basket and ticket of a genuine code", async () => {
    const { pem, code } = instance();
    const key = await importTicketKey(pem);
    expect(await verifyCode(key, code({ e: 12, b: 34, i: 56 }))).toEqual({ eventId: 12, basketId: 34, itemId: 56 });
  });

  it("refuses an altered, truncated, re-spelt or foreign code, and never throws", async () => {
    const ours = instance();
    const theirs = instance();
    const key = await importTicketKey(ours.pem);
    const genuine = ours.code({ e: 1, b: 2, i: 3 });
    const [payload, signature] = genuine.split(".") as [string, string];
    const altered = `${Buffer.from(JSON.stringify({ e: 1, b: 2, i: 4 })).toString("base64url")}.${signature}`;
    // The last character of the signature carries unused low bits: another spelling of the same bytes.
    const last = signature.at(-1) as string;
    const respelt = `${payload}.${signature.slice(0, -1)}${last === "A" ? "B" : String.fromCharCode(last.charCodeAt(0) ^ 1)}`;
    const bad = [
      altered,
      genuine.slice(0, -4),
      theirs.code({ e: 1, b: 2, i: 3 }),
      respelt,
      payload,
      `${genuine}.x`,
      "not a ticket",
      "",
      "..",
      ours.code({ e: 0, b: 2, i: 3 }),
      ours.code({ e: "1", b: 2, i: 3 }),
      ours.code([1, 2, 3]),
      ours.code(null),
    ];
    for (const code of bad) expect(await verifyCode(key, code), code).toBeNull();
  });

  it("decodes base64url only in its canonical spelling", () => {
    expect(Array.from(decodeCanonical("AQID") ?? [])).toEqual([1, 2, 3]);
    expect(Array.from(decodeCanonical("AQI") ?? [])).toEqual([1, 2]);
    expect(decodeCanonical("AQJ")).toBeNull();
    expect(decodeCanonical("AQ==")).toBeNull();
    expect(decodeCanonical("A")).toBeNull();
    expect(decodeCanonical("A+B/")).toBeNull();
  });

  it("does not take a key that is not an Ed25519 public key", async () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" });
    await expect(importTicketKey(rsa.toString())).rejects.toThrow();
  });
});

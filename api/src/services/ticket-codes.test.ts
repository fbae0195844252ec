import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTicketCode, loadTicketKeys, verifyTicketCode } from "./ticket-codes.ts";

const directories: string[] = [];
function freshDataDir() {
  const directory = mkdtempSync(join(tmpdir(), "ticket-keys-"));
  directories.push(directory);
  return directory;
}
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const claims = { eventId: 12, basketId: 3456, itemId: 789012 };

describe("ticket codes", () => {
  it("generates the key once, private to its owner, and loads the same key on the next start", () => {
    const dataDir = freshDataDir();
    const first = loadTicketKeys(dataDir);
    const file = join(dataDir, "ticket-signing-key.pem");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = loadTicketKeys(dataDir);
    expect(second.publicKeyPem).toBe(first.publicKeyPem);
    expect(first.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(verifyTicketCode(second, createTicketCode(first, claims))).toEqual(claims);
  });

  it("round-trips the claims through a short URL-safe code", () => {
    const keys = loadTicketKeys(freshDataDir());
    const code = createTicketCode(keys, claims);
    expect(code).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(code.length).toBeLessThan(140);
    expect(verifyTicketCode(keys, code)).toEqual(claims);
  });

  it("verifies with the public key alone, as an offline scanner would", async () => {
    const keys = loadTicketKeys(freshDataDir());
    const { createPublicKey } = await import("node:crypto");
    const scanner = { publicKey: createPublicKey(keys.publicKeyPem) };
    expect(verifyTicketCode(scanner, createTicketCode(keys, claims))).toEqual(claims);
  });

  it("refuses a code with any single character changed", () => {
    const keys = loadTicketKeys(freshDataDir());
    const code = createTicketCode(keys, claims);
    for (let position = 0; position < code.length; position++) {
      const original = code[position];
      const replacement = original === "A" ? "B" : "A";
      const tampered = code.slice(0, position) + replacement + code.slice(position + 1);
      expect(verifyTicketCode(keys, tampered), `position ${position}`).toBeNull();
    }
  });

  it("refuses a code signed with another key", () => {
    const ours = loadTicketKeys(freshDataDir());
    const theirs = loadTicketKeys(freshDataDir());
    expect(verifyTicketCode(ours, createTicketCode(theirs, claims))).toBeNull();
  });

  it("refuses garbage without throwing", () => {
    const keys = loadTicketKeys(freshDataDir());
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

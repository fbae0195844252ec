// The documented check of a webhook delivery (docs/decisions/0045-webhooks.md): forged and replayed deliveries are
// told apart from genuine ones, by `verifyWebhook` and by the README's receiver snippet alike.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook, type WebhookHeaders } from "./webhook-signature.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const OTHER_SECRET = "whsec_2Z4Lxo0Dk3oXQ8ZbqYH5S0XWdWb1nJ0B";
const NOW = new Date("2030-03-01T08:00:00.000Z");
const SECONDS = Math.floor(NOW.getTime() / 1000);
const BODY = JSON.stringify({ type: "order.paid", timestamp: NOW.toISOString(), data: { order_id: 7 } });
const ID = "msg_2b5f0a0d1c3e4f5a6b7c8d9e0f1a2b3c";

const signed = (overrides: Partial<WebhookHeaders> = {}, secret = SECRET, at = SECONDS): WebhookHeaders => ({
  id: ID,
  timestamp: String(at),
  signature: signWebhook(secret, ID, at, BODY),
  ...overrides,
});

describe("verifyWebhook", () => {
  it("accepts a genuine delivery within the tolerance", () => {
    expect(verifyWebhook(SECRET, signed(), BODY, NOW)).toEqual({ ok: true });
    expect(verifyWebhook(SECRET, signed({}, SECRET, SECONDS - 299), BODY, NOW)).toEqual({ ok: true });
  });

  it("detects a forged delivery: another secret, a body or an id changed, a signature mangled", () => {
    const refused = { ok: false, reason: "bad_signature" };
    expect(verifyWebhook(SECRET, signed({}, OTHER_SECRET), BODY, NOW)).toEqual(refused);
    expect(verifyWebhook(SECRET, signed(), BODY.replace("7", "8"), NOW)).toEqual(refused);
    expect(verifyWebhook(SECRET, signed(), `${BODY} `, NOW)).toEqual(refused);
    expect(verifyWebhook(SECRET, signed({ id: "msg_other" }), BODY, NOW)).toEqual(refused);
    expect(verifyWebhook(SECRET, signed({ signature: "v1,AAAA" }), BODY, NOW)).toEqual(refused);
    expect(verifyWebhook(SECRET, signed({ signature: signed().signature.replace("v1,", "v2,") }), BODY, NOW)).toEqual(
      refused,
    );
    // The timestamp is signed too: moved forward to pass the tolerance, it no longer matches.
    const moved = { ...signed({}, SECRET, SECONDS - 3600), timestamp: String(SECONDS) };
    expect(verifyWebhook(SECRET, moved, BODY, NOW)).toEqual(refused);
  });

  it("detects a replay: a genuine delivery whose timestamp is outside the tolerance", () => {
    expect(verifyWebhook(SECRET, signed({}, SECRET, SECONDS - 301), BODY, NOW)).toEqual({
      ok: false,
      reason: "too_old",
    });
    expect(verifyWebhook(SECRET, signed({}, SECRET, SECONDS + 301), BODY, NOW)).toEqual({
      ok: false,
      reason: "too_new",
    });
    expect(verifyWebhook(SECRET, signed({}, SECRET, SECONDS - 3600), BODY, NOW, 7200)).toEqual({ ok: true });
    expect(verifyWebhook(SECRET, signed({ timestamp: "1e9" }), BODY, NOW)).toEqual({
      ok: false,
      reason: "bad_timestamp",
    });
    expect(verifyWebhook(SECRET, signed({ id: "" }), BODY, NOW)).toEqual({ ok: false, reason: "missing_headers" });
  });

  it("accepts any of several signatures while a secret is rolled", () => {
    const both = `${signWebhook(OTHER_SECRET, ID, SECONDS, BODY)} ${signWebhook(SECRET, ID, SECONDS, BODY)}`;
    expect(verifyWebhook(SECRET, signed({ signature: both }), BODY, NOW)).toEqual({ ok: true });
    expect(verifyWebhook(OTHER_SECRET, signed({ signature: both }), BODY, NOW)).toEqual({ ok: true });
  });

  it("lets a receiver that remembers ids take a genuine delivery once, however often it comes", () => {
    const handled = new Set<string>();
    const receive = (headers: WebhookHeaders, body: string, at: Date) => {
      if (!verifyWebhook(SECRET, headers, body, at).ok) return "refused";
      if (handled.has(headers.id)) return "repeat";
      handled.add(headers.id);
      return "taken";
    };
    const first = signed();
    expect(receive(first, BODY, NOW)).toBe("taken");
    // Replayed within the tolerance, or sent again by the sender with a new timestamp: the same id.
    expect(receive(first, BODY, new Date(NOW.getTime() + 60_000))).toBe("repeat");
    expect(receive(signed({}, SECRET, SECONDS + 120), BODY, NOW)).toBe("repeat");
    expect(
      receive(signed({ id: "msg_next", signature: signWebhook(SECRET, "msg_next", SECONDS, BODY) }), BODY, NOW),
    ).toBe("taken");
  });
});

/** The README's receiver snippet, written to a module of its own and imported. */
describe("the README's receiver snippet", () => {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
  const directory = mkdtempSync(join(tmpdir(), "webhook-snippet-"));
  let snippet: {
    verify(secret: string, headers: Record<string, string>, body: string, nowSeconds: number): boolean;
    isNew(id: string): boolean;
  };
  beforeAll(async () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const block = /<!-- webhook-receiver:[^>]*-->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeTruthy();
    const file = join(directory, "receiver.mjs");
    writeFileSync(file, block as string);
    snippet = await import(pathToFileURL(file).href);
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const asNode = (headers: WebhookHeaders) => ({
    "webhook-id": headers.id,
    "webhook-timestamp": headers.timestamp,
    "webhook-signature": headers.signature,
  });

  it("says what verifyWebhook says, on genuine, forged and replayed deliveries", () => {
    const cases: [WebhookHeaders, string, string][] = [
      [signed(), BODY, SECRET],
      [signed({}, OTHER_SECRET), BODY, SECRET],
      [signed(), `${BODY}x`, SECRET],
      [signed({ id: "msg_forged" }), BODY, SECRET],
      [signed({}, SECRET, SECONDS - 301), BODY, SECRET],
      [signed({}, SECRET, SECONDS + 301), BODY, SECRET],
      [signed({}, SECRET, SECONDS - 300), BODY, SECRET],
      [signed({ signature: `v1,bm9wZQ== ${signed().signature}` }), BODY, SECRET],
      [signed({ timestamp: "abc" }), BODY, SECRET],
      [signed({ signature: "" }), BODY, SECRET],
    ];
    for (const [headers, body, secret] of cases)
      expect(snippet.verify(secret, asNode(headers), body, SECONDS), JSON.stringify(headers)).toBe(
        verifyWebhook(secret, headers, body, NOW).ok,
      );
  });

  it("agrees with verifyWebhook on any body, id, time and tampering", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.stringMatching(/^msg_[0-9a-f]{1,32}$/),
        fc.integer({ min: -1000, max: 1000 }),
        fc.boolean(),
        fc.boolean(),
        (body, id, skew, changeBody, otherSecret) => {
          const at = SECONDS + skew;
          const headers = {
            id,
            timestamp: String(at),
            signature: signWebhook(otherSecret ? OTHER_SECRET : SECRET, id, at, body),
          };
          const received = changeBody ? `${body}!` : body;
          expect(snippet.verify(SECRET, asNode(headers), received, SECONDS)).toBe(
            verifyWebhook(SECRET, headers, received, NOW).ok,
          );
        },
      ),
    );
  });

  it("takes each id once", () => {
    expect(snippet.isNew("msg_a")).toBe(true);
    expect(snippet.isNew("msg_a")).toBe(false);
    expect(snippet.isNew("msg_b")).toBe(true);
  });
});

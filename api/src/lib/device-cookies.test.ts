import { describe, expect, it } from "vitest";
import { DEVICE_COOKIE_DAYS, deviceCookieName, deviceOf, newDeviceCookie } from "./device-cookies.ts";

const SECRET = "a-product-secret-of-some-length";
const ISSUED = new Date("2031-03-01T09:00:00Z");
const days = (n: number) => new Date(ISSUED.getTime() + n * 86_400_000);

describe("device cookies", () => {
  const cookie = newDeviceCookie(SECRET, "owner@example.org", ISSUED);

  it("prove a device of their account for DEVICE_COOKIE_DAYS, and no longer", () => {
    const device = deviceOf(SECRET, "owner@example.org", cookie, days(DEVICE_COOKIE_DAYS - 1));
    expect(device).toMatch(/^[\w-]{22}$/);
    // Each is a device of its own: its attempts are counted under its nonce.
    expect(
      deviceOf(SECRET, "owner@example.org", newDeviceCookie(SECRET, "owner@example.org", ISSUED), ISSUED),
    ).not.toBe(device);
    expect(deviceOf(SECRET, "owner@example.org", cookie, days(DEVICE_COOKIE_DAYS + 1))).toBeNull();
  });

  it("prove nothing for another account, under another secret, altered, or issued in the future", () => {
    expect(deviceOf(SECRET, "other@example.org", cookie, ISSUED)).toBeNull();
    expect(deviceOf("another-secret", "owner@example.org", cookie, ISSUED)).toBeNull();
    const [version, issued, nonce, signature] = cookie.split(".");
    const altered = (parts: (string | number)[]) => deviceOf(SECRET, "owner@example.org", parts.join("."), ISSUED);
    expect(altered([version ?? "", Number(issued) - 1, nonce ?? "", signature ?? ""])).toBeNull();
    expect(altered([version ?? "", issued ?? "", `${nonce?.slice(1)}A`, signature ?? ""])).toBeNull();
    expect(altered([version ?? "", issued ?? "", nonce ?? "", signature ?? "", "extra"])).toBeNull();
    expect(deviceOf(SECRET, "owner@example.org", undefined, ISSUED)).toBeNull();
    expect(deviceOf(SECRET, "owner@example.org", "", ISSUED)).toBeNull();
    const early = newDeviceCookie(SECRET, "owner@example.org", days(1));
    expect(deviceOf(SECRET, "owner@example.org", early, ISSUED)).toBeNull();
  });

  it("are named per account, without the account in the name", () => {
    const name = deviceCookieName(SECRET, "owner@example.org");
    expect(name).toMatch(/^device_[0-9a-f]{20}$/);
    expect(deviceCookieName(SECRET, "other@example.org")).not.toBe(name);
  });
});

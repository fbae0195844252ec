// A signed cookie for React Router's cookie session storage, signed with node:crypto and keys made once.
// React Router's own cookie imports its key through Web Crypto again for every signature it makes or checks (a few %
// of every ticket-office page under load, docs/decisions/0018). The value is written exactly as React Router writes
// it (base64 of the JSON, ".", the HMAC-SHA256 in base64 without padding), so that a cookie either one wrote is
// read by the other: nobody is signed out by the change.

import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";
import type { Cookie } from "react-router";

export interface SignedCookieOptions {
  /** Signs with the first, reads cookies signed with any (a secret being replaced). */
  secrets: string[];
  path: string;
  maxAge: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "lax" | "strict";
}

const signature = (key: KeyObject, value: string) =>
  createHmac("sha256", key).update(value).digest("base64").replace(/=+$/, "");

/** The value signed by one of the keys, or null (no signature, another key, tampered). */
function unsign(signed: string, keys: KeyObject[]): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 0) return null;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  for (const key of keys) {
    const expected = Buffer.from(signature(key, value));
    if (given.length === expected.length && timingSafeEqual(given, expected)) return value;
  }
  return null;
}

/** The raw value of the cookie `name` in a Cookie header (the first one, as React Router's parser reads it). */
function cookieValue(header: string, name: string): string | null {
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
    const raw = pair.slice(equals + 1).trim();
    try {
      return raw.includes("%") ? decodeURIComponent(raw) : raw;
    } catch {
      return raw;
    }
  }
  return null;
}

export function createSignedCookie(name: string, options: SignedCookieOptions): Cookie {
  if (options.secrets.length === 0) throw new Error(`The cookie ${name} needs a secret to be signed with`);
  const keys = options.secrets.map((secret) => createSecretKey(Buffer.from(secret, "utf8")));
  const attributes = [
    `Max-Age=${options.maxAge}`,
    `Path=${options.path}`,
    ...(options.httpOnly ? ["HttpOnly"] : []),
    ...(options.secure ? ["Secure"] : []),
    `SameSite=${options.sameSite === "lax" ? "Lax" : "Strict"}`,
  ].join("; ");
  return {
    name,
    isSigned: true,
    get expires() {
      return new Date(Date.now() + options.maxAge * 1000);
    },
    // The session storage gives null or an empty value a new, empty session.
    async parse(header: string | null) {
      const signed = header ? cookieValue(header, name) : null;
      if (!signed) return signed === "" ? "" : null;
      const value = unsign(signed, keys);
      if (value === null) return null;
      try {
        return JSON.parse(Buffer.from(value, "base64").toString("utf8"));
      } catch {
        return {};
      }
    },
    async serialize(data: unknown) {
      const value = Buffer.from(JSON.stringify(data), "utf8").toString("base64");
      const signed = `${value}.${signature(keys[0] as KeyObject, value)}`;
      return `${name}=${encodeURIComponent(signed)}; ${attributes}`;
    },
  };
}

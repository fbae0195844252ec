// Secrets the product keeps for others (a unit's Stripe keys): encrypted at rest with the product's secret
// (AES-256-GCM under a key derived by HKDF), so a copy of the database alone does not give them away.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";

const keyOf = (productSecret: string) =>
  Buffer.from(hkdfSync("sha256", productSecret, "ticketing", "stored-secrets", 32));

/** `v1.<iv>.<tag>.<ciphertext>`, each base64url. */
export function encryptSecret(productSecret: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(productSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"))].join(".");
}

/** The plaintext, or null when the text was not sealed with this product's secret (or was tampered with). */
export function decryptSecret(productSecret: string, sealed: string): string | null {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(productSecret), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

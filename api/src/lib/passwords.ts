// Password hashes: argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane), stored as PHC strings
// (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`). The scrypt hashes written before (`scrypt$N$r$p$salt$hash`)
// are still accepted, and replaced at the account's next sign-in (`needsRehash`).
import { scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { type Algorithm, hash, parseOptions, verify } from "@node-rs/argon2";

/** OWASP Password Storage Cheat Sheet: m = 19,456 KiB, t = 2, p = 1. */
export const ARGON2_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
// The package's enums are `const enum`s, which isolated modules cannot read: its value, Argon2id.
const ARGON2ID = 2 as Algorithm;
// Version 0x13 (19), the current one; `parseOptions` reports it as 1.
const ARGON2_VERSION_0X13 = 1;

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;
// Enough for the scrypt hashes this product wrote (N=2^15, r=8: 32 MiB).
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { ...ARGON2_PARAMS, algorithm: ARGON2ID });
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith("scrypt$")) return verifyScrypt(password, stored);
  if (!stored.startsWith("$argon2")) return false;
  try {
    return await verify(stored, password);
  } catch {
    // A malformed stored hash matches no password.
    return false;
  }
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, expectedHash] = stored.split("$");
  if (!salt || !expectedHash) return false;
  const expected = Buffer.from(expectedHash, "base64url");
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT_MAXMEM,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Whether a stored hash (one that matched) should be replaced by `hashPassword`'s: anything but argon2id at
 * the current version with at least today's memory and passes. A stronger one is kept, never weakened.
 */
export function needsRehash(stored: string): boolean {
  try {
    const options = parseOptions(stored);
    return (
      options.algorithm !== ARGON2ID ||
      options.version !== ARGON2_VERSION_0X13 ||
      options.memoryCost < ARGON2_PARAMS.memoryCost ||
      options.timeCost < ARGON2_PARAMS.timeCost
    );
  } catch {
    // Not argon2 at all (scrypt).
    return true;
  }
}

/** A hash to compare against when the account does not exist, so timing does not reveal it. */
let dummyHash: Promise<string> | undefined;
export const getDummyHash = () => {
  dummyHash ??= hashPassword("not-a-real-password-!");
  return dummyHash;
};

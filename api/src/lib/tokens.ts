// Bearer tokens: short-lived HS256 access tokens; opaque refresh tokens stored hashed and rotated on use.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { sign, verify } from "hono/jwt";
import { LRUCache } from "lru-cache";

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_DAYS = 30;

export interface AccessClaims {
  /** back-office user id */
  userId: number | null;
  /** ticket-office logins carried by this session */
  frontendLoginIds: number[];
  /**
   * The user's `session_version` when the token was issued (0 without a user): a password reset or change
   * raises it, which ends every access token issued before (services/auth.ts `authenticate`).
   */
  sessionVersion: number;
}

export async function signAccessToken(secret: string, claims: AccessClaims, now = Date.now()): Promise<string> {
  const iat = Math.floor(now / 1000);
  return sign(
    {
      typ: "access",
      uid: claims.userId,
      fl: claims.frontendLoginIds,
      sv: claims.sessionVersion,
      iat,
      exp: iat + ACCESS_TOKEN_SECONDS,
    },
    secret,
    "HS256",
  );
}

/** How many verified access tokens are remembered (a rush's buyers each send theirs on every request). */
const VERIFIED_TOKENS = 10_000;
const verified = new LRUCache<string, { secret: string; claims: AccessClaims; expiresAt: number }>({
  max: VERIFIED_TOKENS,
});

/**
 * The token's claims if it is a valid, unexpired access token signed with `secret`. A token's signature is checked
 * once: what it says cannot change, so the claims are remembered (least recently used out first) and only the
 * expiry is checked on later calls. Whether the session still stands is the caller's check (`authenticate`).
 */
export async function verifyAccessToken(secret: string, token: string, now = Date.now()): Promise<AccessClaims | null> {
  const remembered = verified.get(token);
  if (remembered?.secret === secret) return remembered.expiresAt > now ? remembered.claims : null;
  const checked = await checkAccessToken(secret, token);
  if (!checked || checked.expiresAt <= now) return null;
  verified.set(token, { secret, ...checked });
  return checked.claims;
}

async function checkAccessToken(secret: string, token: string) {
  try {
    const payload = await verify(token, secret, "HS256");
    if (payload.typ !== "access" || typeof payload.exp !== "number") return null;
    const userId = typeof payload.uid === "number" ? payload.uid : null;
    const frontendLoginIds = Array.isArray(payload.fl)
      ? payload.fl.filter((v): v is number => Number.isInteger(v))
      : [];
    // A token without a version predates versions: it counts as version 0, the version of every user then.
    const sessionVersion = Number.isInteger(payload.sv) ? (payload.sv as number) : 0;
    // Shared by every request that sends the token: frozen, so that none can change what another reads.
    const claims = Object.freeze({ userId, frontendLoginIds: Object.freeze(frontendLoginIds), sessionVersion });
    return { claims: claims as AccessClaims, expiresAt: payload.exp * 1000 };
  } catch {
    return null;
  }
}

export const newOpaqueToken = () => randomBytes(32).toString("base64url");
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** HMAC-SHA256 hex of a message, and its constant-time check. */
export const hmacHex = (secret: string, message: string) => createHmac("sha256", secret).update(message).digest("hex");
export function hmacMatches(secret: string, message: string, signature: string): boolean {
  const expected = Buffer.from(hmacHex(secret, message), "hex");
  const actual = Buffer.from(signature, "hex");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

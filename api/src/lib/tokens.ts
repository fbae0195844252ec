// Bearer tokens: short-lived HS256 access tokens; opaque refresh tokens stored hashed and rotated on use.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { sign, verify } from "hono/jwt";

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

export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
  try {
    const payload = await verify(token, secret, "HS256");
    if (payload.typ !== "access") return null;
    const userId = typeof payload.uid === "number" ? payload.uid : null;
    const frontendLoginIds = Array.isArray(payload.fl)
      ? payload.fl.filter((v): v is number => Number.isInteger(v))
      : [];
    // A token without a version predates versions: it counts as version 0, the version of every user then.
    const sessionVersion = Number.isInteger(payload.sv) ? (payload.sv as number) : 0;
    return { userId, frontendLoginIds, sessionVersion };
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

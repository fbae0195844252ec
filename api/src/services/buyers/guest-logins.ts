// Guest (anonymous) sign-ins to a ticket office, limited (docs/decisions/0036): a caller whose token already holds a
// guest login to the event gets it again, uncounted; any other new guest login is counted per client address and
// per browser (its ticket-office device cookie, lib/device-cookies.ts), so that one address or one browser cannot
// make itself hundreds of buyers to get round the caps per buyer. Previews (staff's testing logins) are not counted.
import { and, type Database, desc, eq, inArray, schema } from "@ticketing/db";
import type { AnonymousLoginCreate, FrontendSignIn } from "@ticketing/shared/schemas/auth";
import type { AppDeps } from "../../context.ts";
import { RATE_RULES, type RateLimiter } from "../../lib/rate-limit.ts";
import type { Authenticated } from "../accounts/access.ts";
import { anonymousLogin, carriedClaims, issueTokens } from "../accounts/sessions.ts";
import { assertAccessMethod, officeOf } from "./logins.ts";

/** Who asks for a guest login: their address, their browser's device (null without a valid cookie) and how to give one. */
export interface GuestClient {
  limiter: RateLimiter;
  ip: string;
  device: string | null;
  /** Gives the browser a ticket-office device cookie and answers its device. */
  giveDevice(): string;
}

/** `POST /auth/anonymous-login`: the caller's guest login to the event again, or a new one within the limits. */
export async function signInAnonymously(
  { database, config }: AppDeps,
  auth: Authenticated | null,
  client: GuestClient,
  body: AnonymousLoginCreate,
  now: Date,
): Promise<FrontendSignIn> {
  const { event, userId } = await officeOf(database, auth, body.activeModuleId, body.isTesting);
  if (!body.isTesting) await assertAccessMethod(database, event, "anonymous");
  const held = await heldGuestLogin(database, auth?.frontendLoginIds ?? [], event.id, body.isTesting);
  if (held) {
    const tokens = await issueTokens(database, config.secretKey, carriedClaims(auth, held.id), now);
    return { ...tokens, login: held };
  }
  if (!body.isTesting) await countGuestSignIn(client);
  return anonymousLogin(database, config.secretKey, { event, testing: body.isTesting, previous: auth, userId }, now);
}

/** The newest guest login to the event in that mode among the caller's logins, if any. */
async function heldGuestLogin(database: Database, loginIds: number[], eventId: number, testing: boolean) {
  if (loginIds.length === 0) return undefined;
  const logins = schema.frontendLogins;
  return database.db
    .select()
    .from(logins)
    .where(
      and(
        inArray(logins.id, loginIds),
        eq(logins.eventId, eventId),
        eq(logins.testing, testing),
        eq(logins.method, "anonymous"),
      ),
    )
    .orderBy(desc(logins.id))
    .limit(1)
    .get();
}

/**
 * Counts a new guest sign-in for the browser (a first one gets its device cookie now, and is counted under it) and
 * for the address; 429 past either allowance, and an attempt refused by the address is not left on the browser.
 */
async function countGuestSignIn(client: GuestClient) {
  const device = client.device ?? client.giveDevice();
  const deviceKey = `anonymous-login:device:${device}`;
  await client.limiter.hit(deviceKey, RATE_RULES.anonymousLoginsPerDevice, "errors.anonymous_logins_per_device");
  try {
    await client.limiter.hit(
      `anonymous-login:ip:${client.ip}`,
      RATE_RULES.anonymousLoginsPerAddress,
      "errors.anonymous_logins_per_address",
    );
  } catch (error) {
    await client.limiter.forgive(deviceKey);
    throw error;
  }
}

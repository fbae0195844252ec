// Configuration (docs/design.md §8): parsed once with zod at start-up; every variable has a working default. The
// secrets the environment leaves out come from the database, where every API process of the installation finds the same
// ones (docs/decisions/0024).
import { createPrivateKey, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Database, eq, run, schema } from "@ticketing/db";
import { z } from "zod";
import { parseProxyEntry } from "./lib/client-address.ts";
import { LOG_LEVELS } from "./lib/log.ts";
import { newTicketSigningKey, TICKET_KEY_FILE } from "./services/tickets/ticket-codes.ts";

/** An Ed25519 private key in PEM; `\n` may stand for its line breaks (an environment file holds one line). */
const TicketSigningKey = z
  .string()
  .transform((value) => value.replace(/\\n/g, "\n").trim())
  .refine(isEd25519PrivateKey, "TICKET_SIGNING_KEY must be an Ed25519 private key in PEM (PKCS#8)");

function isEd25519PrivateKey(pem: string) {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

/** A list separated by commas or spaces, each entry read by `read` (null: refused with `refusal` and the entry). */
const listOf = (read: (entry: string) => string | null, refusal: string) =>
  z
    .string()
    .default("")
    .transform((value, ctx) =>
      value
        .split(/[\s,]+/)
        .filter(Boolean)
        .flatMap((entry) => {
          const accepted = read(entry);
          if (accepted !== null) return [accepted];
          ctx.addIssue({ code: "custom", message: `${refusal}: ${entry}` });
          return [];
        }),
    );

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().min(1).optional(),
  DB_DRIVER: z.enum(["better-sqlite3", "libsql"]).optional(),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Ticketing <no-reply@example.org>"),
  SECRET_KEY: z.string().min(32, "SECRET_KEY must be at least 32 characters").optional(),
  TICKET_SIGNING_KEY: TicketSigningKey.optional(),
  SUPPORT_EMAIL: z.email().default("support@example.org"),
  LOG_MAILS: z.enum(["true", "false"]).default("true"),
  /** Read by the process's logger (lib/log.ts) when it is made; checked here so that a typo stops the start. */
  LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  /** Processes on the one port (cluster.ts); more than cores only adds switching, 64 bounds typos. Empty: 1. */
  WORKERS: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.coerce.number().int().min(1).max(64).default(1),
  ),
  RATE_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).max(10_000).default(1),
  /**
   * On SIGTERM, the most a process waits for the answers it holds while they still move (docs/decisions/0035):
   * below the 30 s that Kubernetes and compose.yaml give before their SIGKILL, so that the process says what it cut.
   */
  SHUTDOWN_LIMIT_SECONDS: z.coerce.number().int().min(1).max(3600).default(25),
  /**
   * The load balancers and proxies in front (addresses or subnets, comma-separated) whose `X-Forwarded-For` gives
   * the client's address; empty: the connection's address is the client's (lib/client-address.ts).
   */
  TRUSTED_PROXIES: listOf((entry) => (parseProxyEntry(entry) ? entry : null), "not an IP address or subnet"),
  /**
   * Where the Stripe client sends its API calls: unset for Stripe itself; a local stand-in speaking Stripe's API in
   * tests (`http://127.0.0.1:12111`).
   */
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  CORS_ORIGINS: listOf((entry) => {
    // An origin is a scheme, a host and a port (`https://shop.example.org`): nothing after them.
    const url = URL.canParse(entry) ? new URL(entry) : null;
    return url && /^https?:$/.test(url.protocol) && url.href === `${url.origin}/` ? url.origin : null;
  }, "not an http(s) origin"),
});

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl: string;
  dbDriver: "better-sqlite3" | "libsql" | undefined;
  databaseAuthToken: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Signs tokens, order links and webhooks; encrypts the units' Stripe keys. */
  secretKey: string;
  /** The Ed25519 private key (PKCS#8 PEM) that signs ticket codes. */
  ticketSigningKey: string;
  supportEmail: string;
  logMails: boolean;
  /** processes serving the one port (WORKERS, cluster.ts) */
  workers: number;
  /** scales the login/register/reset rate limits (1 in production) */
  rateLimitMultiplier: number;
  /** on SIGTERM, the most the process waits for the answers it holds (SHUTDOWN_LIMIT_SECONDS, in ms) */
  shutdownLimitMs: number;
  /** origins besides PUBLIC_URL's whose pages may call the API from a browser (CORS) */
  corsOrigins: string[];
  /** proxies whose X-Forwarded-For names the client (addresses or subnets) */
  trustedProxies: string[];
  /** Stripe's API address when it is not Stripe's own (a stand-in); null for api.stripe.com. */
  stripeApi: StripeApi | null;
}

/** What the environment says: the secrets it leaves out are the database's (`withStoredSecrets`). */
export type EnvConfig = Omit<Config, "secretKey" | "ticketSigningKey"> & {
  secretKey: string | undefined;
  ticketSigningKey: string | undefined;
};

export interface StripeApi {
  host: string;
  port: number;
  protocol: "http" | "https";
}

function stripeApiOf(url: string | undefined): StripeApi | null {
  if (!url) return null;
  const parsed = new URL(url);
  const protocol = parsed.protocol === "http:" ? "http" : "https";
  return { host: parsed.hostname, port: Number(parsed.port || (protocol === "http" ? 80 : 443)), protocol };
}

/** Reads the environment; throws an Error listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): EnvConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `file:${join(dataDir, "ticketing.sqlite")}`,
    dbDriver: e.DB_DRIVER,
    databaseAuthToken: e.DATABASE_AUTH_TOKEN,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    secretKey: e.SECRET_KEY,
    ticketSigningKey: e.TICKET_SIGNING_KEY,
    supportEmail: e.SUPPORT_EMAIL,
    logMails: e.LOG_MAILS === "true",
    workers: e.WORKERS,
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    shutdownLimitMs: e.SHUTDOWN_LIMIT_SECONDS * 1000,
    corsOrigins: e.CORS_ORIGINS,
    trustedProxies: e.TRUSTED_PROXIES,
    stripeApi: stripeApiOf(e.STRIPE_API_URL),
  };
}

/** The environment's configuration for a process starting (server.ts, cluster.ts): a bad one is told and exits 1. */
export function loadConfigOrExit(): EnvConfig {
  try {
    return loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

/**
 * The configuration with its secrets: the environment's, or else the database's. The first process to start on an
 * empty database writes them (each made once), and every process reads back the ones that won.
 */
export async function withStoredSecrets(config: EnvConfig, database: Database): Promise<Config> {
  const secretKey =
    config.secretKey ??
    (await storedSecret(database, "secret_key", join(config.dataDir, "secret-key"), () =>
      randomBytes(32).toString("hex"),
    ));
  const ticketSigningKey =
    config.ticketSigningKey ??
    (await storedSecret(database, "ticket_signing_key", join(config.dataDir, TICKET_KEY_FILE), newTicketSigningKey));
  return { ...config, secretKey, ticketSigningKey };
}

/**
 * The installation's secret called `name`. An install from before kept it in a DATA_DIR file: that value goes into
 * the database, so its tokens and signed tickets stay valid. `INSERT … ON CONFLICT DO NOTHING` then a read: of two
 * processes starting together, both end with the one written first.
 */
async function storedSecret(database: Database, name: string, formerFile: string, generate: () => string) {
  const { instanceSecrets } = schema;
  const read = async () =>
    (
      await database.db
        .select({ value: instanceSecrets.value })
        .from(instanceSecrets)
        .where(eq(instanceSecrets.name, name))
        .get()
    )?.value;
  const stored = await read();
  if (stored !== undefined) return stored;
  const value = readFormerFile(formerFile) ?? generate();
  await database.transaction(function* (tx) {
    yield* run(tx.insert(instanceSecrets).values({ name, value }).onConflictDoNothing().run());
  });
  const written = await read();
  if (written === undefined) throw new Error(`The secret ${name} could not be stored in the database.`);
  return written;
}

function readFormerFile(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

// Configuration (DESIGN.md 8): parsed once with zod at start-up; every variable has a working default.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";

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
  SUPPORT_EMAIL: z.email().default("support@example.org"),
  LOG_MAILS: z.enum(["true", "false"]).default("true"),
  RATE_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).max(10_000).default(1),
  /**
   * Where the Stripe client sends its API calls: unset for Stripe itself; a local stand-in speaking Stripe's API in
   * tests (`http://127.0.0.1:12111`).
   */
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  CORS_ORIGINS: z
    .string()
    .default("")
    .transform((value, ctx) =>
      value
        .split(/[\s,]+/)
        .filter(Boolean)
        .flatMap((entry) => {
          // An origin is a scheme, a host and a port (`https://shop.example.org`): nothing after them.
          const url = URL.canParse(entry) ? new URL(entry) : null;
          if (url && /^https?:$/.test(url.protocol) && url.href === `${url.origin}/`) return [url.origin];
          ctx.addIssue({ code: "custom", message: `not an http(s) origin: ${entry}` });
          return [];
        }),
    ),
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
  secretKey: string;
  supportEmail: string;
  logMails: boolean;
  /** scales the login/register/reset rate limits (1 in production) */
  rateLimitMultiplier: number;
  /** origins besides PUBLIC_URL's whose pages may call the API from a browser (CORS) */
  corsOrigins: string[];
  /** Stripe's API address when it is not Stripe's own (a stand-in); null for api.stripe.com. */
  stripeApi: StripeApi | null;
}

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
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
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
    secretKey: e.SECRET_KEY ?? loadOrCreateSecret(dataDir),
    supportEmail: e.SUPPORT_EMAIL,
    logMails: e.LOG_MAILS === "true",
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    corsOrigins: e.CORS_ORIGINS,
    stripeApi: stripeApiOf(e.STRIPE_API_URL),
  };
}

/** A secret generated once into DATA_DIR, so tokens survive restarts without any setup. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, "secret-key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

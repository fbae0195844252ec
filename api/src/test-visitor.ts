// Test support for the ticket office as the whole product serves it (createProduct with the built storefront): a
// product on a fresh data folder, and visitors that keep their cookies between requests as a browser does.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { loadConfig } from "./env.ts";
import { createProduct, type Product, STOREFRONT_BUILD } from "./product.ts";

/**
 * The ticket office must be built (`npm test` builds it first): without it every page would answer the "not built"
 * 503, and a test of its pages would check nothing.
 */
export function expectTicketOfficeBuilt() {
  expect(
    existsSync(join(STOREFRONT_BUILD, "server/index.js")),
    "the ticket office is not built: npm run build -w storefront",
  ).toBe(true);
}

/** The product, seeded with the demo, on a data folder of its own; `stop` removes it. */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  expectTicketOfficeBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), "ticketing-office-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_MAILS: "false", PUBLIC_URL: "http://localhost:3000", ...env });
  const product = await createProduct(config, { mailIntervalMs: 3_600_000 });
  return {
    ...product,
    async stop() {
      await product.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Where a visitor's requests go: the product in this process (`product.app`), or a server it runs (`siteAt`). */
export interface Site {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

/** The product served at `url` (`http://127.0.0.1:3000`), its redirects answered as they come, as a browser sees them. */
export const siteAt = (url: string): Site => ({
  request: (path, init) => fetch(`${url}${path}`, { ...init, redirect: "manual" }),
});

/** One browser: its cookies (name → value), sent with each request and updated from each answer's `Set-Cookie`. */
export class Visitor {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly site: Site,
    /** Sent with every request: `accept-language`, say. */
    private readonly headers: Record<string, string> = {},
  ) {}

  /** The `Cookie` header this visitor sends, or null without cookies. */
  cookieHeader() {
    return this.cookies.size ? [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") : null;
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers({ ...this.headers, ...Object.fromEntries(new Headers(init.headers)) });
    const cookie = this.cookieHeader();
    if (cookie) headers.set("cookie", cookie);
    const response = await this.site.request(path, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const name = pair.slice(0, pair.indexOf("=")).trim();
      const isCleared = attributes.some((attribute) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(attribute));
      if (isCleared) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(pair.indexOf("=") + 1).trim());
    }
    return response;
  }

  get(path: string) {
    return this.request(path);
  }

  /** "Continue as guest" on the login page of the ticket office at `office` (`/tickets/demo`). */
  async signInAsGuest(office: string) {
    expect((await this.post(`${office}/login`, { intent: "anonymous" })).status).toBe(302);
  }

  /** "Add to basket" for one of the article `nodeId`. */
  async addToBasket(office: string, nodeId: number) {
    expect((await this.post(`${office}/buy`, { nodeId: String(nodeId), quantity: "1" })).status).toBe(302);
  }

  /** A form posted as the page's `<form method="post">` posts it (urlencoded). */
  post(path: string, fields: Record<string, string> | [string, string][]) {
    return this.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/** A buyer's billing details as the billing step's form names them. */
export const BILLING_FORM = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.org",
  address: "1 Rue du Lac",
  postalCode: "1006",
  city: "Lausanne",
  country: "CH",
};

/**
 * A buyer's clicks in the ticket office at `office` (`/tickets/demo`): "Continue as guest", "Add to basket" for
 * one article, the billing step, and "Pay now" online; answers the payment's id, read from the provider's address
 * it is sent to.
 */
export async function startPayment(visitor: Visitor, office: string, nodeId: number) {
  await visitor.signInAsGuest(office);
  await visitor.addToBasket(office, nodeId);
  expect((await visitor.post(`${office}/checkout/billing-information`, BILLING_FORM)).status).toBe(302);
  const pay = await visitor.post(`${office}/checkout/payment-method`, { termsAccepted: "on", paymentMethod: "online" });
  const id = /\/payments\/demo\/pay\/(\d+)/.exec(pay.headers.get("location") ?? "")?.[1];
  expect(id, `the payment step answered ${pay.status} ${pay.headers.get("location")}`).toBeDefined();
  return Number(id);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };

/** The characters React writes as entities, back as themselves. */
export const decodeEntities = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name] ?? "");

/** A page's text as it reads: tags dropped, entities decoded. */
export const textOf = (html: string) => decodeEntities(html.replace(/<[^>]+>/g, ""));

/** The text of a page's `<h1>`. */
export const headingOf = (html: string) => textOf(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? "");

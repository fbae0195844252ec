// Issue 28, findings 1 and 14b (docs/decisions/0030): the product reached by another host name than PUBLIC_URL's.
// A buyer on http://127.0.0.1:3000 while PUBLIC_URL is http://localhost:3000 pressed "Pay now" and nothing happened:
// the answer led to the payment page on localhost, which the page's `form-action` does not allow a form to lead to.
// Behind a proxy that rewrites Host, every form was refused (400): its Origin, PUBLIC_URL's, was not the request's.
// Here a browser without JavaScript is played through the whole product (the ticket office's build included).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./env.ts";
import { createProduct, type Product, STOREFRONT_BUILD } from "./product.ts";

const PUBLIC_URL = "http://localhost:3000";

/** Where a form of a page under `policy` may lead, `pageUrl` being the page's own origin ('self'). */
function formMayLeadTo(policy: string | null, pageUrl: string, target: string): boolean {
  const directive = (policy ?? "")
    .split(";")
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === "form-action");
  if (!directive) return true;
  const origin = new URL(target, pageUrl).origin;
  return directive.slice(1).some((source) => (source === "'self'" ? new URL(pageUrl).origin : source) === origin);
}

/**
 * A browser with JavaScript off on `site`: it sends its cookies and, on posts, its Origin; it follows redirects only
 * where the page's Content-Security-Policy lets its form lead (else the click does nothing, as in Chromium).
 * `upstream` is the address a proxy in front of the product forwards to (the Host it rewrites), if any.
 */
class Browser {
  readonly cookies = new Map<string, string>();
  url = "";
  policy: string | null = null;
  html = "";

  constructor(
    private readonly product: Product,
    readonly site: string,
    private readonly upstream = site,
  ) {}

  private async send(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const target = new URL(url, this.url || this.site);
    expect(target.origin, `the browser stays on ${this.site}`).toBe(this.site);
    const headers: Record<string, string> = { "accept-language": "en", accept: "text/html" };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers.origin = new URL(this.url).origin;
    }
    const response = await this.product.app.request(`${this.upstream}${target.pathname}${target.search}`, {
      method: init.method ?? "GET",
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const equals = pair.indexOf("=");
      this.cookies.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    return { response, url: target.href };
  }

  /** Opens `url` and follows its redirects (a navigation: no form-action applies). */
  async open(url: string) {
    let { response, url: at } = await this.send(url);
    for (let hops = 0; response.status >= 300 && response.status < 400; hops++) {
      expect(hops).toBeLessThan(10);
      ({ response, url: at } = await this.send(new URL(response.headers.get("location") ?? "", at).href));
    }
    expect(response.status, `${at}: ${response.status}`).toBe(200);
    this.url = at;
    this.policy = response.headers.get("content-security-policy");
    this.html = await response.text();
  }

  /** Submits a form of the current page to `action` (the page itself by default), then follows where it leads. */
  async submit(form: Record<string, string>, action = this.url) {
    const { response, url } = await this.send(action, { method: "POST", form });
    expect([302, 303], `${url} answered ${response.status}: ${await response.clone().text()}`).toContain(
      response.status,
    );
    const location = response.headers.get("location") ?? "";
    expect(
      formMayLeadTo(this.policy, this.url, location),
      `the page's form-action lets its form lead to ${location}`,
    ).toBe(true);
    await this.open(new URL(location, url).href);
  }
}

describe("the product reached by another host name than PUBLIC_URL's", () => {
  let product: Product;
  let dataDir: string;
  beforeAll(async () => {
    expect(existsSync(join(STOREFRONT_BUILD, "server/index.js")), "the storefront is built (npm run build)").toBe(true);
    dataDir = mkdtempSync(join(tmpdir(), "ticketing-host-"));
    product = await createProduct(loadConfig({ DATA_DIR: dataDir, LOG_MAILS: "false", PUBLIC_URL }), {
      mailIntervalMs: 3_600_000,
    });
  });
  afterAll(async () => {
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ["on 127.0.0.1 while PUBLIC_URL is localhost", "http://127.0.0.1:3000", undefined],
    ["on PUBLIC_URL behind a proxy that rewrites Host", PUBLIC_URL, "http://app-7:3000"],
    ["on https www. behind a proxy that ends TLS", "https://www.localhost:3000", "http://www.localhost:3000"],
  ])("a guest without JavaScript buys a day pass and pays on the demo page, %s", async (_, site, upstream) => {
    const buyer = new Browser(product, site, upstream);
    await buyer.open("/tickets/demo/buy");
    expect(buyer.url).toBe(`${site}/tickets/demo/login?nextUrl=%2Ftickets%2Fdemo%2Fbuy`);
    await buyer.submit({ intent: "anonymous", nextUrl: "/tickets/demo/buy" });
    expect(buyer.url).toBe(`${site}/tickets/demo/buy`);

    const nodeId = buyer.html.match(/name="nodeId" value="(\d+)"/)?.[1] ?? "";
    await buyer.submit({ intent: "add", nodeId, quantity: "1" });
    expect(buyer.html).toContain("Your basket");
    await buyer.open("/tickets/demo/checkout");
    expect(buyer.url).toBe(`${site}/tickets/demo/checkout/billing-information`);
    await buyer.submit({
      firstName: "Grace",
      lastName: "Hopper",
      email: "grace@example.org",
      address: "12 Avenue de la Gare",
      postalCode: "1003",
      city: "Lausanne",
      country: "Switzerland",
    });
    expect(buyer.url).toBe(`${site}/tickets/demo/checkout/payment-method`);

    // "Pay now": the demo provider's page, on the buyer's origin (it was on PUBLIC_URL's, and nothing happened).
    await buyer.submit({ paymentMethod: "online", termsAccepted: "on" });
    expect(buyer.url).toMatch(new RegExp(`^${site}/api/v1/payments/demo/pay/\\d+\\?sig=[0-9a-f]{64}$`));
    expect(buyer.html).toContain("Demo payment");
    const sig = buyer.html.match(/name="sig" value="([0-9a-f]{64})"/)?.[1] ?? "";
    await buyer.submit({ sig, outcome: "success" }, buyer.url.replace(/\?.*$/, ""));
    expect(buyer.url).toMatch(new RegExp(`^${site}/tickets/demo/(completion|payment/return/\\d+/success)$`));
    expect(buyer.html).toMatch(/Download ticket/);
  });

  /** A guest's sign-in form and the language switch, posted to `upstream` from a page on `origin`. */
  const posts = (upstream: string, origin: string, language = "en") => {
    const post = (path: string, form: string) =>
      product.app.request(`${upstream}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin, "accept-language": language },
        body: form,
      });
    return Promise.all([
      post("/tickets/demo/login", "intent=anonymous&nextUrl=%2Ftickets%2Fdemo%2Fbuy"),
      post("/language", "lng=fr&redirectTo=%2Ftickets%2Fdemo"),
    ]);
  };

  it("takes the forms of PUBLIC_URL's pages through a proxy that rewrites Host (the sign-in answered 400)", async () => {
    const [signIn, language] = await posts("http://app-7:3000", PUBLIC_URL);
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("location")).toBe("/tickets/demo/buy");
    expect(signIn.headers.get("set-cookie")).toMatch(/^__ticket_office=/);
    expect(language.status).toBe(302);
    expect(language.headers.get("set-cookie")).toMatch(/^lng=/);
  });

  it.each([
    ["another site", "https://evil.example"],
    ["another port of the host", "http://app-7:4000"],
    ["a sibling of PUBLIC_URL's host", "http://shop.localhost:3000"],
    ["an opaque origin", "null"],
  ])("refuses every form posted from %s, the language switch's too, saying why", async (_, origin) => {
    for (const answer of await posts("http://app-7:3000", origin, "fr-CH")) {
      expect(answer.status).toBe(400);
      expect(answer.headers.get("set-cookie")).toBeNull();
      expect(await answer.text()).toContain("Ce formulaire a été envoyé depuis la page d&#39;un autre site");
    }
  });
});

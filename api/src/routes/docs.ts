// The published contract: the OpenAPI document and its reference page (Scalar), served from this machine: the
// page's script comes from the installed package, never from a CDN.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Scalar } from "@scalar/hono-api-reference";
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { route } from "../lib/route.ts";

/** `GET /openapi.json`: the document, built once from the app's routes on first request. */
export const openApiRoute = (document: () => object) =>
  route({ summary: "This API's OpenAPI 3.1 document", produces: "application/json" }, (c) => c.json(document()));

const SCRIPT_PATH = "/api/v1/docs/scalar.js";
// The toolbar (share, deploy), the AI helper and the default fonts come from Scalar's servers: this page
// needs none of them (the system's fonts serve).
const page = Scalar({
  url: "/api/v1/openapi.json",
  cdn: SCRIPT_PATH,
  pageTitle: "Ticketing API",
  showDeveloperTools: "never",
  withDefaultFonts: false,
  agent: { disabled: true },
} as Parameters<typeof Scalar>[0]);
let script: Promise<string> | undefined;

/** The page's own inline script is allowed by its hash; Scalar's components set their styles inline. */
function policy(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash("sha256")
        .update(body ?? "")
        .digest("base64")}'`,
  );
  return [
    "default-src 'none'",
    `script-src 'self' ${hashes.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export const docsRoutes = new Hono<AppEnv>();

docsRoutes.get(
  "/",
  route({ summary: "The API's reference page", produces: "text/html" }, async (c) => {
    const response = await page(c as unknown as Parameters<typeof page>[0], async () => {});
    const html = await (response as Response).text();
    return c.html(html, 200, { "Content-Security-Policy": policy(html) });
  }),
);

docsRoutes.get(
  "/scalar.js",
  route({ summary: "The reference page's script", produces: "text/javascript" }, async (c) => {
    script ??= readFile(
      join(dirname(fileURLToPath(import.meta.resolve("@scalar/api-reference"))), "browser", "standalone.js"),
      "utf8",
    );
    return c.body(await script, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    });
  }),
);

// Issue 15: what a first visit of the back office downloads before its login page shows. The real server (serving
// the built admin/dist, so run `npm run build` first) and a fresh headless Chromium (empty cache): every JavaScript
// response is counted as sent (compressed) and as the browser decoded it.
// Runs alone (`npx tsx bench/admin.ts`) or from `npm run bench`.
import { pathToFileURL } from "node:url";
import { chromium } from "playwright";
import { round, startServer } from "./lib.ts";

/** The aim: the compressed JavaScript of a first visit, before the login page shows. */
export const ADMIN_FIRST_VISIT_AIM_KB = 500;

export interface AdminScript {
  /** the path under /admin/assets */
  name: string;
  /** the response body as sent, before the browser decodes it */
  transferredBytes: number;
  decodedBytes: number;
  encoding: string;
}

export interface AdminFigures {
  scripts: AdminScript[];
  transferredBytes: number;
  decodedBytes: number;
  /** from navigation to the login form's e-mail field showing (one sample: context, not a figure to compare) */
  loginShownMs: number;
}

export async function benchAdmin(): Promise<AdminFigures> {
  const server = await startServer("api/src/server.ts", "/api/v1/events/public-infos");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ locale: "en-GB" });
    const responses: Promise<AdminScript>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      responses.push(
        (async () => {
          // `sizes()` waits for the body to be read; responseBodySize is the body as it came over the wire.
          const [sizes, body, headers] = await Promise.all([
            response.request().sizes(),
            response.body(),
            response.allHeaders(),
          ]);
          return {
            name: new URL(response.url()).pathname.replace(/^\/admin\/assets\//, ""),
            transferredBytes: sizes.responseBodySize,
            decodedBytes: body.byteLength,
            encoding: headers["content-encoding"] ?? "identity",
          };
        })(),
      );
    });
    const start = performance.now();
    await page.goto(`${server.url}/admin/`);
    await page.getByLabel(/^E-?mail/).waitFor({ state: "visible", timeout: 60_000 });
    const loginShownMs = performance.now() - start;
    const scripts = (await Promise.all(responses)).sort((a, b) => b.transferredBytes - a.transferredBytes);
    return {
      scripts,
      transferredBytes: scripts.reduce((sum, s) => sum + s.transferredBytes, 0),
      decodedBytes: scripts.reduce((sum, s) => sum + s.decodedBytes, 0),
      loginShownMs: round(loginShownMs, 0),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

const kb = (bytes: number) => round(bytes / 1024, 1);

/** The report's section (markdown). */
export function adminReport(f: AdminFigures): string {
  const rows = f.scripts.map(
    (s) => `| ${s.name} | ${s.encoding} | ${kb(s.transferredBytes)} | ${kb(s.decodedBytes)} |`,
  );
  return `## The back office's first visit

What a first visit of \`/admin/\` downloads before the login page shows: the real server, a fresh headless Chromium
(empty cache), every JavaScript response until the login form's e-mail field is visible. "Sent" is the body as it
came over the wire (brotli or gzip where served so), "decoded" what the browser ran. The login form showed after
${f.loginShownMs} ms (one sample).

| script | encoding | sent KB | decoded KB |
| --- | --- | ---: | ---: |
${rows.join("\n")}
| **${f.scripts.length} scripts** | | **${kb(f.transferredBytes)}** | **${kb(f.decodedBytes)}** |

**JavaScript sent before the login page shows (aim < ${ADMIN_FIRST_VISIT_AIM_KB} KB): ${kb(f.transferredBytes)} KB**
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await benchAdmin();
  console.log(`\n${adminReport(figures)}`);
  console.log(JSON.stringify(figures, null, 2));
}

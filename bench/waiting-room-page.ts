// The waiting-room page's cost (issue 30): `/tickets/<path>/waiting-room` as waiting buyers see it while it
// reloads itself, under sustained load (autocannon), against the same HTML as a static file — served by the same
// server (as pages.ts compares the other pages) and by the bare reference (reference-server.ts, from memory), the
// cheapest answer of those bytes this bench has.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { cannon, type LoadFigures } from "./cannon.ts";
import { buyerHeaders, type ChildServer, nextBuyerAddress, root, round, startServer } from "./lib.ts";

export interface RoomPageFigures {
  path: string;
  guests: number;
  /** Whether the page carries a `Refresh` header (it reloads itself without JavaScript). */
  reloadsItself: boolean;
  htmlBytes: number;
  htmlGzipBytes: number;
  page: LoadFigures;
  /** The same HTML as a static file of the product's server, and of the bare reference. */
  sameServerStatic: LoadFigures;
  referenceStatic: LoadFigures;
  /** Pages/s over files/s. */
  sameServerRatio: number;
  referenceRatio: number;
}

/** A browser's cookies: each `Set-Cookie` replaces the cookie of that name. */
class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0] ?? "";
      const name = pair.slice(0, pair.indexOf("="));
      if (name) this.cookies.set(name, pair);
    }
  }
  get header() {
    return [...this.cookies.values()].join("; ");
  }
}

/**
 * A waiting buyer as a browser without JavaScript makes one, from an address of their own: the login form's guest
 * sign-in, then the room's page, which takes their place at its first visit. Answers their cookies.
 */
async function waitingGuest(server: ChildServer, office: string): Promise<string> {
  const jar = new CookieJar();
  const address = nextBuyerAddress();
  const login = await fetch(`${server.url}${office}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...buyerHeaders(address) },
    body: new URLSearchParams({ intent: "anonymous", nextUrl: `${office}/waiting-room` }),
  });
  if (login.status !== 302) throw new Error(`${login.status} for the guest login form`);
  jar.take(login);
  const first = await fetch(`${server.url}${office}/waiting-room`, {
    headers: { cookie: jar.header, ...buyerHeaders(address) },
    redirect: "manual",
  });
  await first.text();
  if (first.status !== 200) throw new Error(`${first.status} for a guest's first visit of the waiting room`);
  jar.take(first);
  return jar.header;
}

/** `guests` waiting buyers of the event at `office` (`/tickets/<path>`) load the room's page in turn. */
export async function benchRoomPage(
  server: ChildServer,
  office: string,
  guests: number,
  load: { seconds?: number; warmupSeconds?: number },
): Promise<RoomPageFigures> {
  const path = `${office}/waiting-room`;
  const cookies: string[] = [];
  for (let n = 0; n < guests; n++) cookies.push(await waitingGuest(server, office));
  const page = await fetch(server.url + path, { headers: { cookie: cookies[0] as string }, redirect: "manual" });
  const html = await page.text();
  if (page.status !== 200 || !html.includes("Estimated wait:"))
    throw new Error(`${path} (${page.status}) is not the page of a waiting buyer`);
  const refreshSeconds = Number(page.headers.get("refresh") ?? Number.NaN);
  const staticDir = join(root, "storefront/build/client/__bench-waiting-room");
  const referenceDir = mkdtempSync(join(tmpdir(), "ticketing-reference-"));
  mkdirSync(join(referenceDir, "files"));
  writeFileSync(join(referenceDir, "files", "waiting-room.html"), html);
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, "waiting-room.html"), html);
  const reference = await startServer("bench/reference-server.ts", "/stocks/0", {}, referenceDir);
  try {
    let turn = 0;
    const options = { warmupSeconds: 2, ...load };
    const product = await cannon(
      server.url,
      () => ({ path, headers: { cookie: cookies[turn++ % cookies.length] as string } }),
      options,
    );
    const sameServerStatic = await cannon(
      server.url,
      () => ({ path: "/__bench-waiting-room/waiting-room.html" }),
      options,
    );
    const referenceStatic = await cannon(reference.url, () => ({ path: "/files/waiting-room.html" }), options);
    return {
      path,
      guests,
      reloadsItself: refreshSeconds > 0,
      htmlBytes: Buffer.byteLength(html),
      htmlGzipBytes: gzipSync(html).length,
      page: product,
      sameServerStatic,
      referenceStatic,
      sameServerRatio: round(product.requestsPerSecond / sameServerStatic.requestsPerSecond),
      referenceRatio: round(product.requestsPerSecond / referenceStatic.requestsPerSecond),
    };
  } finally {
    await reference.stop();
    rmSync(staticDir, { recursive: true, force: true });
    rmSync(referenceDir, { recursive: true, force: true });
  }
}

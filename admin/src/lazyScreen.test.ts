// A first visit of /admin downloads the entry chunk: what main.tsx reaches through static imports. The screens behind
// the sign-in (lazyScreen) and their heavy packages must stay out of it (issue 15).
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CHUNK_RELOAD_KEY, loadOrReloadOnce } from "./lazyScreen.ts";

const src = import.meta.dirname;

/** `import … from "x"`, `export … from "x"` and `import "x"`; not `import type` (erased) nor `import("x")` (a chunk). */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\s)(?:[^"'();]*?\sfrom\s+)?["']([^"']+)["'];?$/gm;

/** The source files main.tsx reaches statically, and the packages they import. */
function entryGraph() {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    // Imports span lines (`import {\n a,\n b,\n} from "x";`): joined into one before matching.
    const text = readFileSync(file, "utf8")
      .replace(/,\s*\n\s*/g, ", ")
      .replace(/\{\s*\n\s*/g, "{ ");
    for (const [, specifier] of text.matchAll(STATIC_IMPORT)) {
      if (!specifier) continue;
      if (!specifier.startsWith(".")) {
        packages.add(specifier);
        continue;
      }
      const target = resolve(dirname(file), specifier);
      // The shared workspace's translations are JSON; only source files are followed.
      if (/\.tsx?$/.test(target) && existsSync(target)) visit(target);
    }
  };
  visit(resolve(src, "main.tsx"));
  return { files: [...files].map((file) => file.slice(src.length + 1)), packages: [...packages] };
}

describe("the back office's entry chunk", () => {
  const { files, packages } = entryGraph();

  it("hold the login page and the app's frame", () => {
    expect(files).toEqual(expect.arrayContaining(["App.tsx", "layout/LoginPage.tsx", "layout/Layout.tsx"]));
  });

  it("leave out the event editor and every other screen behind the sign-in", () => {
    const screens = files.filter(
      (file) => /^(events|units|users)\//.test(file) || file === "auth/PasswordChangePage.tsx",
    );
    // events/index.ts and units/index.ts register the resources: their screens are lazy.
    expect(screens.sort()).toEqual(["events/EventRedirect.tsx", "events/index.ts", "units/index.ts"]);
  });

  it("leave out the heavy packages: charts, date pickers, the tree graph", () => {
    expect(packages.filter((name) => /^@mui\/x-|^@xyflow\//.test(name))).toEqual([]);
  });
});

describe("a screen whose chunk fails to load", () => {
  /** One tab: its sessionStorage survives reloads; each reload is a new page whose origin time is its name. */
  function tab() {
    const items = new Map<string, string>();
    let pages = 1;
    let reloads = 0;
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
    const reload = () => {
      reloads++;
      pages++;
    };
    const options = () => ({ storage, page: `page-${pages}`, reload });
    return { items, options, reloads: () => reloads };
  }
  const gone = () => Promise.reject(new TypeError("Failed to fetch dynamically imported module"));
  const found = () => Promise.resolve({ EventDashboard: "the dashboard" });
  /** Whether the promise settled once the pending callbacks ran (the loader stays up while it does not). */
  const settled = async (promise: Promise<unknown>) => {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    await new Promise((resolve) => setTimeout(resolve));
    return done;
  };

  it("reloads the page once, and the reloaded page shows the screen", async () => {
    const { options, reloads, items } = tab();
    const first = options();
    expect(await settled(loadOrReloadOnce(gone, "EventDashboard", first))).toBe(false);
    expect(reloads()).toBe(1);
    expect(items.has(CHUNK_RELOAD_KEY)).toBe(true);
    // The new deployment's chunk loads: the marker goes, so that a later deployment reloads again.
    await expect(loadOrReloadOnce(found, "EventDashboard", options())).resolves.toEqual({
      EventDashboard: "the dashboard",
    });
    expect(items.has(CHUNK_RELOAD_KEY)).toBe(false);
    expect(await settled(loadOrReloadOnce(gone, "EventDashboard", options()))).toBe(false);
    expect(reloads()).toBe(2);
  });

  it("shows the error when the chunk fails again right after the reload, without reloading again", async () => {
    const { options, reloads } = tab();
    expect(await settled(loadOrReloadOnce(gone, "EventDashboard", options()))).toBe(false);
    expect(reloads()).toBe(1);
    await expect(loadOrReloadOnce(gone, "EventDashboard", options())).rejects.toThrow("Failed to fetch");
    // Another screen failing on that page: the error too, never a loop.
    await expect(loadOrReloadOnce(gone, "EventEdit", options())).rejects.toThrow("Failed to fetch");
    expect(reloads()).toBe(1);
  });

  it("keeps the marker while only other screens load, so that the failing one cannot loop", async () => {
    const { options, reloads, items } = tab();
    // The editor loads, its graph's chunk is gone: one reload.
    await loadOrReloadOnce(found, "EventEdit", options());
    expect(await settled(loadOrReloadOnce(gone, "default", options()))).toBe(false);
    expect(reloads()).toBe(1);
    // On the reloaded page the editor loads again (the marker stays: it is the graph's), the graph fails: error.
    await loadOrReloadOnce(found, "EventEdit", options());
    expect(items.has(CHUNK_RELOAD_KEY)).toBe(true);
    await expect(loadOrReloadOnce(gone, "default", options())).rejects.toThrow();
    expect(reloads()).toBe(1);
  });

  it("reloads once when two screens of one page fail together", async () => {
    const { options, reloads } = tab();
    const page = options();
    const both = [loadOrReloadOnce(gone, "EventEdit", page), loadOrReloadOnce(gone, "default", page)];
    expect(await settled(Promise.race(both))).toBe(false);
    expect(reloads()).toBe(1);
  });
});

// A first visit of /admin downloads the entry chunk: what main.tsx reaches through static imports. The screens behind
// the sign-in (lazyScreen) and their heavy packages must stay out of it (issue 15).
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";

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

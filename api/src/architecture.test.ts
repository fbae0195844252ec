// The shape the API keeps (docs/decisions/0009): routes parse, call one service and answer; services own the
// data; nothing imports in a circle.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SOURCE = dirname(fileURLToPath(import.meta.url));

/** The API's modules (tests left out), by path relative to api/src. */
function modules(folder = SOURCE): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return modules(path);
    return /\.ts$/.test(entry.name) && !/\.(test|fixtures)\.ts$/.test(entry.name) ? [relative(SOURCE, path)] : [];
  });
}

/** The relative imports of a module (`import … from "./x.ts"`, `export … from`, `import("./x.ts")`), resolved. */
function importsOf(module: string): string[] {
  const text = readFileSync(join(SOURCE, module), "utf8");
  const found = [...text.matchAll(/(?:from\s+|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)].map(([, path]) => path);
  return found.map((path) => relative(SOURCE, resolve(SOURCE, dirname(module), path as string)));
}

/** The import circles among `files`, each as the list of modules around it. */
function importCircles(graph: Map<string, string[]>): string[][] {
  const circles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") circles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return circles;
}

/** The longest chain of imports in `graph` (1 for a module importing none); circles are `importCircles`' concern. */
function importDepth(graph: Map<string, string[]>): number {
  const depth = new Map<string, number>();
  const visit = (node: string, open: Set<string>): number => {
    const known = depth.get(node);
    if (known !== undefined) return known;
    open.add(node);
    const next = (graph.get(node) ?? []).filter((to) => !open.has(to)).map((to) => visit(to, open));
    open.delete(node);
    const found = 1 + Math.max(0, ...next);
    depth.set(node, found);
    return found;
  };
  return Math.max(0, ...[...graph.keys()].map((node) => visit(node, new Set())));
}

/** How many lines a file of api/src has. */
const linesOf = (path: string) => readFileSync(join(SOURCE, path), "utf8").split("\n").length - 1;

describe("the API's shape", () => {
  const all = modules();
  const routes = all.filter((path) => path.startsWith("routes/"));

  it("finds the modules it checks", () => {
    expect(routes.length).toBeGreaterThan(5);
    expect(all.filter((path) => path.startsWith("services/")).length).toBeGreaterThan(5);
  });

  it("keeps the database out of the route files, their tests included", () => {
    const files = readdirSync(join(SOURCE, "routes"), { recursive: true, encoding: "utf8" }).map(
      (name) => `routes/${name}`,
    );
    expect(files.length).toBeGreaterThan(routes.length);
    const reading = files.filter(
      (path) => /\.ts$/.test(path) && readFileSync(join(SOURCE, path), "utf8").includes("@ticketing/db"),
    );
    expect(reading).toEqual([]);
  });

  it("keeps every route file under 250 lines", () => {
    const long = routes
      .map((path) => [path, readFileSync(join(SOURCE, path), "utf8").split("\n").length - 1] as const)
      .filter(([, lines]) => lines > 250);
    expect(long).toEqual([]);
  });

  it("has no import circle", () => {
    const graph = new Map(all.map((module) => [module, importsOf(module).filter((path) => all.includes(path))]));
    expect(importCircles(graph)).toEqual([]);
  });

  it("would see a circle", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(importCircles(graph)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
  });

  it("would measure a chain of imports", () => {
    const graph = new Map([
      ["a.ts", ["b.ts", "d.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", []],
      ["d.ts", []],
    ]);
    expect(importDepth(graph)).toBe(3);
  });
});

// The services' rooms (api/src/services/README.md): one folder per aggregate or area, each saying in a README what
// it owns and whom it may call; short files; a mail queued through the queue alone.
describe("the services' rooms", () => {
  const services = join(SOURCE, "services");
  const entries = readdirSync(services, { withFileTypes: true });
  const files = readdirSync(services, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.ts$/.test(name))
    .map((name) => `services/${name}`);
  const modulesOfServices = modules(services);

  it("keeps no file at the top level but the index and the README", () => {
    const flat = entries.filter((entry) => entry.isFile() && !["index.ts", "README.md"].includes(entry.name));
    expect(flat.map((entry) => entry.name)).toEqual([]);
  });

  it("gives every folder a README", () => {
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((folder) => !readdirSync(join(services, folder)).includes("README.md"))).toEqual([]);
  });

  it("keeps every file, tests included, at most 400 lines", () => {
    expect(files.length).toBeGreaterThan(modulesOfServices.length);
    expect(files.map((path) => [path, linesOf(path)]).filter(([, lines]) => (lines as number) > 400)).toEqual([]);
  });

  it("queues mails through mail/queue.ts alone (the back office's previews render one)", () => {
    const previews = ["services/events/event-settings.ts"];
    const reaching = modulesOfServices.filter(
      (path) =>
        !path.startsWith("services/mail/") &&
        !previews.includes(path) &&
        importsOf(path).some((to) => to.startsWith("services/mail/") && to !== "services/mail/queue.ts"),
    );
    expect(reaching).toEqual([]);
  });

  it("keeps the services' imports at most 10 deep", () => {
    const graph = new Map(
      modulesOfServices.map((module) => [module, importsOf(module).filter((to) => modulesOfServices.includes(to))]),
    );
    expect(importDepth(graph)).toBeLessThanOrEqual(10);
  });
});

describe("the server's tests", () => {
  const root = resolve(SOURCE, "../..");
  const testFiles = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
      return entry.name.endsWith(".test.ts") ? [relative(root, path)] : [];
    });

  // vitest.config.ts runs them in shared module graphs (`isolate: false`): a file that replaced a module would replace
  // it for the files after it in its worker. The one that does runs alone, in the "isolated" project.
  it("replace no module, but the one vitest.config.ts isolates", () => {
    const mocking = ["shared", "db", "api"]
      .flatMap((folder) => testFiles(join(root, folder)))
      .filter((file) => /\bvi\.(mock|doMock|stubEnv|stubGlobal)\(/.test(readFileSync(join(root, file), "utf8")));
    expect(mocking).toEqual(["api/src/services/accounts/accounts.test.ts"]);
    expect(readFileSync(join(root, "vitest.config.ts"), "utf8")).toContain(`"${mocking[0]}"`);
  });
});

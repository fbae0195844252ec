// Every document a source file cites is in the repository (issue 29): the design, the specification and the style
// guide are docs/design.md, docs/specification.md and docs/style.md, not documents beside a clone. A `docs/…` path
// written in a source file or a README names a file that exists, and a `§` of the design or the specification a
// heading it has.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const sourceRoots = ["admin/src", "storefront/app", "api/src", "db/src", "shared/src", "e2e", "bench", "scripts"];
const skipped = new Set(["node_modules", "build", "dist", "test-results", "playwright-report", ".react-router"]);
const sourceFile = /\.(ts|tsx|js|mjs|cjs|css|md)$/;
const self = relative(root, import.meta.filename);

const filesUnder = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : filesUnder(path);
    return sourceFile.test(entry.name) ? [path] : [];
  });

/** Every source file of the workspaces, their READMEs and the docs that cite one another. */
const scanned = (): string[] => [
  ...sourceRoots.flatMap(filesUnder).filter((path) => path !== self),
  ...["README.md", "admin/README.md", "storefront/README.md"].filter((path) => existsSync(join(root, path))),
  ...filesUnder("docs"),
];

/** What was cited outside the repository: the documents by their old names, or their sections by number. */
const outside = /\b(?:DESIGN|SPEC|STYLE)\.md\b|\b(?:DESIGN|SPEC|STYLE)\s+\d|\/work\/shared\//;

/** The lines of `text` that match `pattern`, as `path:line: text`. */
const matching = (path: string, text: string, pattern: RegExp): string[] =>
  text.split("\n").flatMap((line, index) => (pattern.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : []));

/** Whether a cited `docs/…` path names something in the repository; `docs/decisions/0031` names 0031-*.md. */
const exists = (cited: string): boolean => {
  const path = cited.replace(/[.,;:)]+$/, "");
  if (existsSync(join(root, path))) return true;
  const record = /^docs\/decisions\/(\d{4})$/.exec(path);
  return record !== null && readdirSync(join(root, "docs/decisions")).some((name) => name.startsWith(`${record[1]}-`));
};

const headings = (path: string): string[] =>
  readFileSync(join(root, path), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("#"));

/** Whether `docs/design.md` or `docs/specification.md` has section `number` (`## 4.`, `### 2.3`). */
const hasSection = (doc: string, number: string): boolean =>
  headings(doc).some((line) => line.startsWith(number.includes(".") ? `### ${number} ` : `## ${number}. `));

/** The `###` headings under the design's `## 4.`, its domain rules. */
const domainRules = (): string[] => {
  const lines = headings("docs/design.md");
  const start = lines.findIndex((line) => line.startsWith("## 4. "));
  const end = lines.findIndex((line, index) => index > start && line.startsWith("## "));
  return lines.slice(start + 1, end).map((line) => line.replace(/^### /, ""));
};

/** Every `docs/x.md §n` of `text`, with the titles quoted after a design §4 (`§4 "Stock", "Price"`). */
const sectionCitations = (text: string) =>
  [
    ...text.matchAll(/docs\/(design|specification)\.md §(\d+(?:\.\d+)?)((?:(?:, | \/ | and |, and )§\d+(?:\.\d+)?)*)/g),
  ].map((match) => {
    const [cited, doc = "", first = "", more = ""] = match;
    const numbers = [first, ...[...more.matchAll(/§(\d+(?:\.\d+)?)/g)].map((m) => m[1] ?? "")];
    const after = text.slice(match.index + cited.length);
    const quoted = /^((?: |, )"[^"\n]+")+/.exec(after)?.[0] ?? "";
    const titles = [...quoted.matchAll(/"([^"\n]+)"/g)].map((m) => m[1] ?? "");
    return { doc: `docs/${doc}.md`, numbers, titles, cited };
  });

describe("documents cited by the source", () => {
  it("are inside the repository: no DESIGN.md, SPEC.md or STYLE.md, no DESIGN 4 or SPEC 2.3", () => {
    const found = scanned().flatMap((path) => {
      const text = readFileSync(join(root, path), "utf8");
      return matching(path, text, outside);
    });
    expect(found).toEqual([]);
  });

  it("name docs/ files that exist", () => {
    const missing = scanned().flatMap((path) =>
      [...readFileSync(join(root, path), "utf8").matchAll(/(?<![\w./-])docs\/[\w./-]*/g)]
        .map((match) => match[0])
        .filter((cited) => !exists(cited))
        .map((cited) => `${path}: ${cited}`),
    );
    expect(missing).toEqual([]);
  });

  it("name sections of docs/design.md and docs/specification.md that exist", () => {
    const rules = domainRules();
    const wrong = scanned().flatMap((path) =>
      sectionCitations(readFileSync(join(root, path), "utf8")).flatMap(({ doc, numbers, titles, cited }) => [
        ...numbers.filter((number) => !hasSection(doc, number)).map((number) => `${path}: ${cited} (no §${number})`),
        ...(doc === "docs/design.md" && numbers.length === 1 && numbers[0] === "4"
          ? titles.filter((title) => !rules.includes(title)).map((title) => `${path}: ${cited} "${title}"`)
          : []),
      ]),
    );
    expect(wrong).toEqual([]);
  });
});

// Every rule the apps share lives once, in shared/, and the back office and the ticket office import it
// (docs/architecture.md, "Where each kind of rule lives"). This test reads the apps' source (admin/src and
// storefront/app, tests left out) and fails, naming the file, the line and the rule, when one of them writes a shared
// rule again: a status or other list of shared/src/constants.ts (or the payment states), the event status
// transitions, or the password check.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as constants from "./constants.ts";
import { EVENT_STATUS_TRANSITIONS } from "./event-status.ts";
import * as invoices from "./schemas/invoices.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const APP_SOURCES = ["admin/src", "storefront/app"];

type Source = { path: string; text: string };
type Finding = { path: string; line: number; rule: string };

/** The apps' source files: TypeScript, not tests. */
function appSources(): Source[] {
  return APP_SOURCES.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
      .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.includes("node_modules"))
      .map((name) => ({
        path: relative(ROOT, join(ROOT, folder, name)),
        text: readFileSync(join(ROOT, folder, name), "utf8"),
      })),
  );
}

/** Every list of strings a shared module exports, by name; a list exported twice (re-exported) counts once. */
function listsOf(modules: [string, Record<string, unknown>][]) {
  const seen = new Set<unknown>();
  return modules.flatMap(([file, module]) =>
    Object.entries(module)
      .filter(
        (entry): entry is [string, readonly string[]] =>
          Array.isArray(entry[1]) && entry[1].length > 1 && entry[1].every((value) => typeof value === "string"),
      )
      .filter(([, values]) => {
        if (seen.has(values)) return false;
        seen.add(values);
        return true;
      })
      .map(([name, values]) => ({ name: `${name} (${file})`, values })),
  );
}

/** The shared lists: the statuses, categories, languages… of shared/src/constants.ts, and the payment states. */
const SHARED_LISTS = listsOf([
  ["shared/src/constants.ts", constants],
  ["shared/src/schemas/invoices.ts", invoices],
]);

const parsed = new WeakMap<Source, ts.SourceFile>();

/** Calls `onNode` with every node of the source's syntax tree (each file parsed once). */
function visit(source: Source, onNode: (node: ts.Node, file: ts.SourceFile) => void) {
  const kind = source.path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = parsed.get(source) ?? ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, false, kind);
  parsed.set(source, file);
  const walk = (node: ts.Node) => {
    onNode(node, file);
    ts.forEachChild(node, walk);
  };
  walk(file);
}

const lineOf = (node: ts.Node, file: ts.SourceFile) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;

/** The strings written side by side in one array literal (`["a", "b"]`, `z.enum([...])`) or one union type. */
function literalGroup(node: ts.Node): string[] | undefined {
  if (ts.isArrayLiteralExpression(node))
    return node.elements.filter(ts.isStringLiteralLike).map((element) => element.text);
  if (ts.isUnionTypeNode(node))
    return node.types.flatMap((type) =>
      ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal) ? [type.literal.text] : [],
    );
  return undefined;
}

/** Groups of string literals holding every value of a shared list: the list written again. */
export function restatedLists(sources: Source[], lists = SHARED_LISTS): Finding[] {
  const findings: Finding[] = [];
  for (const source of sources)
    visit(source, (node, file) => {
      const group = literalGroup(node);
      if (!group || group.length < 2) return;
      for (const list of lists)
        if (list.values.every((value) => group.includes(value)))
          findings.push({ path: source.path, line: lineOf(node, file), rule: list.name });
    });
  return findings;
}

const propertyName = (name: ts.PropertyName) =>
  ts.isIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : undefined;

/**
 * Tables of the event status transitions written again: an object (`{ draft: ["public"], … }`) or a list of pairs
 * (`new Map([["draft", ["public"]], …])`) from statuses to statuses holding every transition of
 * EVENT_STATUS_TRANSITIONS (shared/src/event-status.ts).
 */
export function restatedTransitions(sources: Source[]): Finding[] {
  const expected = Object.entries(EVENT_STATUS_TRANSITIONS).flatMap(([from, targets]) =>
    targets.map((to) => `${from}>${to}`),
  );
  const findings: Finding[] = [];
  const targetsOf = (node: ts.Node | undefined) =>
    node && ts.isArrayLiteralExpression(node)
      ? node.elements.filter(ts.isStringLiteralLike).map((element) => element.text)
      : [];
  for (const source of sources)
    visit(source, (node, file) => {
      let entries: [string | undefined, ts.Node | undefined][] = [];
      if (ts.isObjectLiteralExpression(node))
        entries = node.properties.filter(ts.isPropertyAssignment).map((p) => [propertyName(p.name), p.initializer]);
      else if (ts.isArrayLiteralExpression(node))
        entries = node.elements
          .filter((element): element is ts.ArrayLiteralExpression => ts.isArrayLiteralExpression(element))
          .map(({ elements: [key, targets] }) => [key && ts.isStringLiteralLike(key) ? key.text : undefined, targets]);
      const pairs = entries.flatMap(([from, targets]) => targetsOf(targets).map((to) => `${from}>${to}`));
      if (pairs.length > 0 && expected.every((pair) => pairs.includes(pair)))
        findings.push({
          path: source.path,
          line: lineOf(node, file),
          rule: "EVENT_STATUS_TRANSITIONS (shared/src/event-status.ts)",
        });
    });
  return findings;
}

/** A character class of letters and digits only, negated: "a special character" (`/[^A-Za-z0-9]/`, `/[^\p{L}\p{N}]/u`). */
const SPECIAL_CHARACTER_CLASS =
  /^\/\[\^(?:a-z|A-Z|0-9|\\p\{L\}|\\p\{N\}|\\p\{Letter\}|\\p\{Number\}|\\w|\\d|_)+\]\/[a-z]*$/;

/**
 * The password check written again (shared/src/passwords.ts, passwordProblems): in a file about passwords, a test
 * for a special character (a regular expression of anything but letters and digits, or `\W`), or a password's length
 * compared with the minimum (MIN_PASSWORD_LENGTH, or its value written out).
 */
export function restatedPasswordChecks(sources: Source[]): Finding[] {
  const findings: Finding[] = [];
  const rule = "the password check, passwordProblems (shared/src/passwords.ts)";
  const isMinimum = (node: ts.Expression) =>
    (ts.isIdentifier(node) && node.text === "MIN_PASSWORD_LENGTH") ||
    (ts.isNumericLiteral(node) && Number(node.text) === constants.MIN_PASSWORD_LENGTH);
  const isLength = (node: ts.Expression) => ts.isPropertyAccessExpression(node) && node.name.text === "length";
  for (const source of sources.filter(({ text }) => /password/i.test(text)))
    visit(source, (node, file) => {
      const isSpecialCharacterTest =
        ts.isRegularExpressionLiteral(node) &&
        (SPECIAL_CHARACTER_CLASS.test(node.text) || /^\/\\W\/[a-z]*$/.test(node.text));
      const isLengthCheck =
        ts.isBinaryExpression(node) &&
        [ts.SyntaxKind.LessThanToken, ts.SyntaxKind.GreaterThanEqualsToken].includes(node.operatorToken.kind) &&
        ((isLength(node.left) && isMinimum(node.right)) || (isLength(node.right) && isMinimum(node.left)));
      if (isSpecialCharacterTest || isLengthCheck) findings.push({ path: source.path, line: lineOf(node, file), rule });
    });
  return findings;
}

const described = (findings: Finding[]) =>
  findings.map(({ path, line, rule }) => `${path}:${line} writes again ${rule}; import it from shared/ instead`);

describe("every shared rule is written once, in shared/", () => {
  const sources = appSources();

  it("reads the apps' source, and looks for the shared lists the apps use most", () => {
    expect(sources.some(({ path }) => path.startsWith("admin/src/"))).toBe(true);
    expect(sources.some(({ path }) => path.startsWith("storefront/app/"))).toBe(true);
    const names = SHARED_LISTS.map(({ name }) => name.split(" ")[0]);
    for (const list of ["BASKET_STATUSES", "PAYMENT_STATES", "EVENT_STATUSES", "NODE_CATEGORIES", "LANGUAGES"])
      expect(names).toContain(list);
  });

  it("no status list, language list or other list of shared/ is written again in the apps", () => {
    expect(described(restatedLists(sources))).toEqual([]);
  });

  it("the event status transitions are not written again in the apps", () => {
    expect(described(restatedTransitions(sources))).toEqual([]);
  });

  it("the password check is not written again in the apps", () => {
    expect(described(restatedPasswordChecks(sources))).toEqual([]);
  });
});

describe("the copy finder", () => {
  const pasted = (text: string, path = "admin/src/pasted.ts") => [{ path, text }];

  it("finds a list pasted as an array, a zod enum or a union type, and names the rule", () => {
    expect(restatedLists(pasted('const STATUSES = ["draft", "public", "closed", "archived"] as const;'))).toEqual([
      { path: "admin/src/pasted.ts", line: 1, rule: "EVENT_STATUSES (shared/src/constants.ts)" },
    ]);
    expect(restatedLists(pasted('const language = z.enum(["fr", "en"]);')).map(({ rule }) => rule)).toContain(
      "LANGUAGES (shared/src/constants.ts)",
    );
    const union = 'type State = "open" | "paid" | "failed" | "expired" | "cancelled";';
    expect(restatedLists(pasted(union)).map(({ rule }) => rule.split(" ")[0])).toContain("PAYMENT_STATES");
  });

  it("leaves alone a list that uses the shared one, or a part of it", () => {
    const uses = 'import { EVENT_STATUSES } from "@ticketing/shared/constants";\nconst shown = [...EVENT_STATUSES];';
    expect(restatedLists(pasted(uses))).toEqual([]);
    expect(restatedLists(pasted('const closedOnes = ["closed", "archived"];'))).toEqual([]);
  });

  it("finds the transition table pasted, as an object or as pairs", () => {
    const table =
      'const T = { draft: ["public"], public: ["closed", "draft"], closed: ["public", "archived"], archived: [] };';
    expect(restatedTransitions(pasted(table))).toHaveLength(1);
    const pairs =
      'new Map([["draft", ["public"]], ["public", ["draft", "closed"]], ["closed", ["archived", "public"]]]);';
    expect(restatedTransitions(pasted(pairs))).toHaveLength(1);
    expect(restatedTransitions(pasted('const next = { draft: ["public"] };'))).toEqual([]);
  });

  it("finds the password check pasted, but not the shared one imported", () => {
    const copy = [
      "const SPECIAL = /[^A-Za-z0-9]/;",
      "export const validatePassword = (password: string) => password.length < 12 || !SPECIAL.test(password);",
    ].join("\n");
    expect(restatedPasswordChecks(pasted(copy)).map(({ line }) => line)).toEqual([1, 2]);
    const imported =
      'import { passwordProblems } from "@ticketing/shared/passwords";\nconst ok = (password: string) => passwordProblems(password).length === 0;';
    expect(restatedPasswordChecks(pasted(imported))).toEqual([]);
  });
});

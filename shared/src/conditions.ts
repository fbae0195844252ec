// Condition evaluation (docs/design.md §4 "Conditions", docs/specification.md §9): pure, no I/O.
//
// Decisions (the spec only names the operators):
// - A statement looks at a set of values: the promotion codes active in the basket, or the visitor's email (an
//   anonymous visitor has none). Blank values are ignored, so "" never counts as a code or an email.
// - Positive operators (`>`, `>=`, `=`, `<`, `<=`, `exists`, `contains`, `is in`) hold when ANY value satisfies
//   them ("any active code in the basket satisfies").
// - `!=` is the negation of `=`: "no value equals". The older reading "some value differs" made
//   `promotion_code != VIP` true for a basket holding VIP and another code, and false for a basket with no code
//   at all; an organiser writing `!=` means "does not have this code", so now `is !=` ≡ `not =`.
// - Scope `not` negates the whole statement (`not` is exactly `!is`), so `not exists` holds for a visitor
//   without any code, and `not contains @example.org` holds for an anonymous visitor.
// - Comparisons are case-insensitive and ignore surrounding spaces. When both sides are decimal numbers
//   (`12`, `-3.5`, `0,5`) every comparison (`=`, `!=`, `is in`, the orderings) is numeric, so `>=` and `<=`
//   together agree with `=`; otherwise they compare strings by code unit, which is locale-independent.
//   `Number()` is not used to detect numbers: it accepts "0x10", "1e3" and "Infinity".
// - `exists` with an empty right value: some value is present. With a right value it means "this value is
//   present" (the same as `=`): an organiser writing `promotion_code exists VIP` means that code.
// - `contains` with an empty right value never holds (every string contains "", which would make the rule
//   hold for everyone by accident). On `user_email`, a right value starting with "@" is a DOMAIN MATCH: the
//   email must end with it, so `@example.org` matches `ann@example.org` but not `eve@example.org.evil.test`
//   nor `eve@notexample.org` (a substring test would grant both).
// - `is in` takes a comma-separated list; blank entries are ignored; an empty list holds for nobody.
// - An empty condition (no statements) holds, whatever its logical operator.
import type { LogicalOperator, StatementOperand, StatementOperator, StatementScope } from "./constants.ts";

export interface Statement {
  leftHandOperand: StatementOperand;
  operator: StatementOperator;
  rightHandValue: string;
  scope: StatementScope;
}

export interface Condition {
  logicalOperator: LogicalOperator;
  statements: Statement[];
}

/** What a condition can look at: the visitor's email and the promotion codes active in the basket. */
export interface Visitor {
  email: string | null;
  promotionCodes: string[];
}

const DECIMAL = /^[+-]?\d+(?:[.,]\d+)?$/;

function asNumber(value: string): number | null {
  return DECIMAL.test(value) ? Number(value.replace(",", ".")) : null;
}

function normalise(value: string): string {
  return value.trim().toLowerCase();
}

function valuesEqual(left: string, right: string): boolean {
  const ln = asNumber(left);
  const rn = asNumber(right);
  return ln !== null && rn !== null ? ln === rn : left === right;
}

/** -1, 0 or 1; numeric when both sides are decimal numbers. */
function order(left: string, right: string): number {
  const ln = asNumber(left);
  const rn = asNumber(right);
  if (ln !== null && rn !== null) return Math.sign(ln - rn);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** One value against a positive operator (`!=` is handled by the caller as the negation of `=`). */
function satisfies(
  operand: StatementOperand,
  value: string,
  operator: Exclude<StatementOperator, "!=">,
  right: string,
): boolean {
  switch (operator) {
    case "exists":
      return right === "" || valuesEqual(value, right);
    case "=":
      return valuesEqual(value, right);
    case "contains":
      if (right === "") return false;
      return operand === "user_email" && right.startsWith("@") ? value.endsWith(right) : value.includes(right);
    case "is in":
      return right
        .split(",")
        .map((entry) => entry.trim())
        .some((entry) => entry !== "" && valuesEqual(value, entry));
    case ">":
      return order(value, right) > 0;
    case ">=":
      return order(value, right) >= 0;
    case "<":
      return order(value, right) < 0;
    case "<=":
      return order(value, right) <= 0;
  }
}

/** The values a statement's left operand stands for, normalised, blanks dropped. */
function operandValues(operand: StatementOperand, visitor: Visitor): string[] {
  const raw = operand === "user_email" ? [visitor.email ?? ""] : visitor.promotionCodes;
  return raw.map(normalise).filter((value) => value !== "");
}

export function evaluateStatement(statement: Statement, visitor: Visitor): boolean {
  const values = operandValues(statement.leftHandOperand, visitor);
  const right = normalise(statement.rightHandValue);
  const { leftHandOperand: operand, operator } = statement;
  const holds =
    operator === "!="
      ? !values.some((value) => satisfies(operand, value, "=", right))
      : values.some((value) => satisfies(operand, value, operator, right));
  return statement.scope === "not" ? !holds : holds;
}

/** An empty condition holds. */
export function evaluateCondition(condition: Condition | null | undefined, visitor: Visitor): boolean {
  if (!condition || condition.statements.length === 0) return true;
  return condition.logicalOperator === "and"
    ? condition.statements.every((s) => evaluateStatement(s, visitor))
    : condition.statements.some((s) => evaluateStatement(s, visitor));
}

/**
 * Whether the condition a rule points to holds, for rules of every kind (price rules, availabilities, accesses).
 * No condition: holds. No visitor (the back office asking for base prices): a conditional rule does not apply.
 * A dangling id (condition not loaded or deleted) never holds: a rule is skipped rather than granted to all.
 */
export function conditionHolds(
  conditionId: number | null | undefined,
  conditions: ReadonlyMap<number, Condition>,
  visitor: Visitor | null,
): boolean {
  if (conditionId === null || conditionId === undefined) return true;
  if (visitor === null) return false;
  const condition = conditions.get(conditionId);
  return condition !== undefined && evaluateCondition(condition, visitor);
}

/**
 * The operators the editor offers by name (docs/specification.md §9); the others are edited as raw statement operators.
 */
export const CONDITION_INTERFACE_OPERATORS = ["isIn", "contains", "equal"] as const;
export type ConditionInterfaceOperator = (typeof CONDITION_INTERFACE_OPERATORS)[number];

const STATEMENT_OPERATOR_OF: Record<ConditionInterfaceOperator, StatementOperator> = {
  isIn: "is in", // "belongs to" a comma-separated list
  contains: "contains", // "domain matching" with a right value such as @example.org
  equal: "=",
};

export function statementOperatorOf(operator: ConditionInterfaceOperator): StatementOperator {
  return STATEMENT_OPERATOR_OF[operator];
}

/** The editor's name for a stored operator; null for the operators it has no name for (`>`, `exists`…). */
export function interfaceOperatorOf(operator: StatementOperator): ConditionInterfaceOperator | null {
  return CONDITION_INTERFACE_OPERATORS.find((name) => STATEMENT_OPERATOR_OF[name] === operator) ?? null;
}

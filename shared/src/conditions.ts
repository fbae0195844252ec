// Condition evaluation (DESIGN.md 4 "Conditions"): pure, no I/O.
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

function compare(left: string, operator: StatementOperator, right: string): boolean {
  const l = left.trim().toLowerCase();
  const r = right.trim().toLowerCase();
  const ln = Number(l);
  const rn = Number(r);
  const numeric = l !== "" && r !== "" && Number.isFinite(ln) && Number.isFinite(rn);
  switch (operator) {
    case "exists":
      return l !== "";
    case "=":
      return l === r;
    case "!=":
      return l !== r;
    case "contains":
      return r !== "" && l.includes(r);
    case "is in":
      return r
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean)
        .includes(l);
    case ">":
      return numeric ? ln > rn : l > r;
    case ">=":
      return numeric ? ln >= rn : l >= r;
    case "<":
      return numeric ? ln < rn : l < r;
    case "<=":
      return numeric ? ln <= rn : l <= r;
  }
}

export function evaluateStatement(statement: Statement, visitor: Visitor): boolean {
  const values =
    statement.leftHandOperand === "user_email" ? (visitor.email ? [visitor.email] : []) : visitor.promotionCodes;
  // A statement over promotion codes holds when any active code satisfies it; `exists` with no value fails.
  const holds = values.some((value) => compare(value, statement.operator, statement.rightHandValue));
  return statement.scope === "not" ? !holds : holds;
}

/** An empty condition holds. */
export function evaluateCondition(condition: Condition | null | undefined, visitor: Visitor): boolean {
  if (!condition || condition.statements.length === 0) return true;
  return condition.logicalOperator === "and"
    ? condition.statements.every((s) => evaluateStatement(s, visitor))
    : condition.statements.some((s) => evaluateStatement(s, visitor));
}

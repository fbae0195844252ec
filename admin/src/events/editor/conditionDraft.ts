// The condition builder's model (docs/specification.md §9: operators isIn / contains / equal, operands promotion code
// and user email, scope is/not, and/or) and its mapping to the API's conditions and statements. Pure.
import {
  type ConditionInterfaceOperator,
  interfaceOperatorOf,
  statementOperatorOf,
} from "@ticketing/shared/conditions";
import type { LogicalOperator, StatementOperand, StatementOperator, StatementScope } from "@ticketing/shared/constants";
import type { Condition, Statement } from "@ticketing/shared/schemas/catalogue";

/**
 * A statement as the builder edits it. `operator` is an interface operator, or the stored operator itself
 * when the editor has no name for it (`>`, `exists`…: kept as it is, never rewritten).
 */
export interface StatementDraft {
  operand: StatementOperand;
  operator: ConditionInterfaceOperator | StatementOperator;
  value: string;
  scope: StatementScope;
}

export interface ConditionDraft {
  logicalOperator: LogicalOperator;
  statements: StatementDraft[];
}

export const EMPTY_CONDITION: ConditionDraft = { logicalOperator: "and", statements: [] };

/** A new row of the builder: "user email contains @…" is the commonest case after promotion codes. */
export const newStatementDraft = (operand: StatementOperand = "promotion_code"): StatementDraft => ({
  operand,
  operator: operand === "user_email" ? "contains" : "equal",
  value: "",
  scope: "is",
});

const INTERFACE_OPERATORS: readonly string[] = ["isIn", "contains", "equal"];
const isInterfaceOperator = (operator: string): operator is ConditionInterfaceOperator =>
  INTERFACE_OPERATORS.includes(operator);

export function draftFromCondition(condition: Condition | null | undefined): ConditionDraft {
  if (!condition) return EMPTY_CONDITION;
  return {
    logicalOperator: condition.logicalOperator,
    statements: [...condition.statements]
      .sort((a, b) => a.order - b.order || a.id - b.id)
      .map((statement) => ({
        operand: statement.leftHandOperand,
        operator: interfaceOperatorOf(statement.operator) ?? statement.operator,
        value: statement.rightHandValue,
        scope: statement.scope,
      })),
  };
}

export const storedOperatorOf = (operator: StatementDraft["operator"]): StatementOperator =>
  isInterfaceOperator(operator) ? statementOperatorOf(operator) : operator;

/** The statement body sent to `/statements` (camelCase; the data provider makes it snake_case). */
export function statementBody(draft: StatementDraft, conditionId: number, order: number) {
  return {
    conditionId,
    leftHandOperand: draft.operand,
    operator: storedOperatorOf(draft.operator),
    // `is in` takes a comma-separated list: tidy the spaces an organiser types around the commas.
    rightHandValue:
      storedOperatorOf(draft.operator) === "is in"
        ? draft.value
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean)
            .join(",")
        : draft.value.trim(),
    scope: draft.scope,
    order,
  };
}

export type StatementBody = ReturnType<typeof statementBody>;

export interface StatementWrites {
  create: StatementBody[];
  update: { id: number; data: StatementBody }[];
  delete: number[];
}

/**
 * The writes that turn a condition's stored statements into the draft's: existing rows are reused in order
 * (updated only when they differ), extra drafts are created, surplus rows deleted.
 */
export function statementWrites(
  existing: readonly Statement[],
  draft: ConditionDraft,
  conditionId: number,
): StatementWrites {
  const stored = [...existing].sort((a, b) => a.order - b.order || a.id - b.id);
  const writes: StatementWrites = { create: [], update: [], delete: [] };
  draft.statements.forEach((statement, order) => {
    const body = statementBody(statement, conditionId, order);
    const row = stored[order];
    if (!row) writes.create.push(body);
    else if (
      row.leftHandOperand !== body.leftHandOperand ||
      row.operator !== body.operator ||
      row.rightHandValue !== body.rightHandValue ||
      row.scope !== body.scope ||
      row.order !== body.order
    )
      writes.update.push({ id: row.id, data: body });
  });
  for (const row of stored.slice(draft.statements.length)) writes.delete.push(row.id);
  return writes;
}

export type StatementProblem = "required" | "domain";

/**
 * What is wrong with a statement, as an i18n key suffix: a value is needed (but for `exists`), and a domain
 * match on the email must start with "@" (shared/conditions: `contains @example.org` matches by suffix).
 */
export function statementProblem(statement: StatementDraft): StatementProblem | null {
  const operator = storedOperatorOf(statement.operator);
  if (operator !== "exists" && statement.value.trim() === "") return "required";
  if (operator === "contains" && statement.operand === "user_email" && !statement.value.trim().startsWith("@"))
    return "domain";
  return null;
}

export const isDraftValid = (draft: ConditionDraft): boolean =>
  draft.statements.every((statement) => statementProblem(statement) === null);

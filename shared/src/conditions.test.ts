import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CONDITION_INTERFACE_OPERATORS,
  type Condition,
  conditionHolds,
  evaluateCondition,
  evaluateStatement,
  interfaceOperatorOf,
  type Statement,
  statementOperatorOf,
  type Visitor,
} from "./conditions.ts";
import { STATEMENT_OPERANDS, STATEMENT_OPERATORS, type StatementOperand, type StatementOperator } from "./constants.ts";

const anonymous: Visitor = { email: null, promotionCodes: [] };
const ann: Visitor = { email: "Ann@Example.org", promotionCodes: [] };
const withCodes = (...promotionCodes: string[]): Visitor => ({ email: null, promotionCodes });

const statement = (
  leftHandOperand: StatementOperand,
  operator: StatementOperator,
  rightHandValue: string,
  scope: "is" | "not" = "is",
): Statement => ({ leftHandOperand, operator, rightHandValue, scope });

// [operand, operator, right value, visitor, expected with scope `is`]; every row is also checked with `not`.
const CASES: [StatementOperand, StatementOperator, string, Visitor, boolean][] = [
  // promotion_code
  ["promotion_code", "=", "vip", withCodes("VIP"), true],
  ["promotion_code", "=", " VIP ", withCodes("other", "vip"), true],
  ["promotion_code", "=", "vip", withCodes("other"), false],
  ["promotion_code", "=", "vip", anonymous, false],
  ["promotion_code", "=", "7", withCodes("007"), true],
  ["promotion_code", "!=", "vip", withCodes("other"), true],
  ["promotion_code", "!=", "vip", withCodes("VIP", "other"), false],
  ["promotion_code", "!=", "vip", anonymous, true],
  ["promotion_code", ">", "10", withCodes("9", "11"), true],
  ["promotion_code", ">", "10", withCodes("9"), false],
  ["promotion_code", ">", "10", anonymous, false],
  ["promotion_code", ">", "b", withCodes("c"), true],
  ["promotion_code", ">=", "10", withCodes("10"), true],
  ["promotion_code", ">=", "10", withCodes("9.99"), false],
  ["promotion_code", "<", "10", withCodes("9"), true],
  ["promotion_code", "<", "10", withCodes("10"), false],
  ["promotion_code", "<", "10", anonymous, false],
  ["promotion_code", "<=", "10", withCodes("10,0"), true],
  ["promotion_code", "<=", "10", withCodes("11"), false],
  ["promotion_code", "exists", "", withCodes("any"), true],
  ["promotion_code", "exists", "", anonymous, false],
  ["promotion_code", "exists", "", withCodes("  "), false],
  ["promotion_code", "exists", "vip", withCodes("VIP"), true],
  ["promotion_code", "exists", "vip", withCodes("other"), false],
  ["promotion_code", "contains", "stud", withCodes("STUDENT2026"), true],
  ["promotion_code", "contains", "stud", withCodes("VIP"), false],
  ["promotion_code", "contains", "", withCodes("VIP"), false],
  ["promotion_code", "contains", "x", anonymous, false],
  ["promotion_code", "is in", "vip, press ,crew", withCodes("PRESS"), true],
  ["promotion_code", "is in", "vip,press", withCodes("pres"), false],
  ["promotion_code", "is in", " , ", withCodes("vip"), false],
  ["promotion_code", "is in", "vip", anonymous, false],
  // user_email
  ["user_email", "=", "ann@example.org", ann, true],
  ["user_email", "=", "bob@example.org", ann, false],
  ["user_email", "=", "", anonymous, false],
  ["user_email", "!=", "bob@example.org", ann, true],
  ["user_email", "!=", "ANN@example.org", ann, false],
  ["user_email", "!=", "bob@example.org", anonymous, true],
  ["user_email", ">", "a", ann, true],
  ["user_email", ">", "b", ann, false],
  ["user_email", ">", "a", anonymous, false],
  ["user_email", ">=", "ann@example.org", ann, true],
  ["user_email", ">=", "b", ann, false],
  ["user_email", "<", "b", ann, true],
  ["user_email", "<", "a", ann, false],
  ["user_email", "<", "z", anonymous, false],
  ["user_email", "<=", "ann@example.org", ann, true],
  ["user_email", "<=", "a", ann, false],
  ["user_email", "exists", "", ann, true],
  ["user_email", "exists", "", anonymous, false],
  ["user_email", "exists", "", { email: "", promotionCodes: [] }, false],
  ["user_email", "contains", "@example.org", ann, true],
  ["user_email", "contains", "@example.org", { email: "eve@example.org.evil.test", promotionCodes: [] }, false],
  ["user_email", "contains", "@example.org", { email: "eve@notexample.org", promotionCodes: [] }, false],
  ["user_email", "contains", "example", ann, true],
  ["user_email", "contains", "@example.org", anonymous, false],
  ["user_email", "contains", "", ann, false],
  ["user_email", "is in", "bob@example.org, ann@example.org", ann, true],
  ["user_email", "is in", "bob@example.org", ann, false],
  ["user_email", "is in", "ann@example.org", anonymous, false],
];

describe("statements", () => {
  it.each(CASES)("%s %s %j for %j: is → %s, not → the opposite", (operand, operator, right, visitor, expected) => {
    expect(evaluateStatement(statement(operand, operator, right, "is"), visitor)).toBe(expected);
    expect(evaluateStatement(statement(operand, operator, right, "not"), visitor)).toBe(!expected);
  });

  it("covers every operator for every operand", () => {
    for (const operand of STATEMENT_OPERANDS)
      for (const operator of STATEMENT_OPERATORS)
        expect(
          CASES.some(([o, op]) => o === operand && op === operator),
          `${operand} ${operator}`,
        ).toBe(true);
  });

  it("compares numbers as numbers and words as words", () => {
    expect(evaluateStatement(statement("promotion_code", ">", "9"), withCodes("10"))).toBe(true);
    expect(evaluateStatement(statement("promotion_code", ">", "9"), withCodes("10a"))).toBe(false);
    // "0x10" and "1e3" are codes, not numbers
    expect(evaluateStatement(statement("promotion_code", "=", "16"), withCodes("0x10"))).toBe(false);
    expect(evaluateStatement(statement("promotion_code", "=", "1000"), withCodes("1e3"))).toBe(false);
  });
});

describe("conditions", () => {
  const vip = statement("promotion_code", "=", "vip");
  const staff = statement("user_email", "contains", "@example.org");

  it("holds when empty, whatever the logical operator", () => {
    expect(evaluateCondition(null, anonymous)).toBe(true);
    expect(evaluateCondition({ logicalOperator: "or", statements: [] }, anonymous)).toBe(true);
  });

  it("joins statements with and / or", () => {
    const both = { email: "ann@example.org", promotionCodes: ["VIP"] };
    expect(evaluateCondition({ logicalOperator: "and", statements: [vip, staff] }, both)).toBe(true);
    expect(evaluateCondition({ logicalOperator: "and", statements: [vip, staff] }, ann)).toBe(false);
    expect(evaluateCondition({ logicalOperator: "or", statements: [vip, staff] }, ann)).toBe(true);
    expect(evaluateCondition({ logicalOperator: "or", statements: [vip, staff] }, anonymous)).toBe(false);
  });

  it("conditionHolds: no condition holds, no visitor or a dangling id does not", () => {
    const conditions = new Map<number, Condition>([[1, { logicalOperator: "and", statements: [vip] }]]);
    expect(conditionHolds(null, conditions, null)).toBe(true);
    expect(conditionHolds(1, conditions, null)).toBe(false);
    expect(conditionHolds(1, conditions, withCodes("vip"))).toBe(true);
    expect(conditionHolds(1, conditions, anonymous)).toBe(false);
    expect(conditionHolds(2, conditions, withCodes("vip"))).toBe(false);
  });

  it("maps the editor's operators to statement operators and back", () => {
    expect(statementOperatorOf("isIn")).toBe("is in");
    expect(statementOperatorOf("contains")).toBe("contains");
    expect(statementOperatorOf("equal")).toBe("=");
    for (const name of CONDITION_INTERFACE_OPERATORS) expect(interfaceOperatorOf(statementOperatorOf(name))).toBe(name);
    expect(interfaceOperatorOf(">=")).toBeNull();
    expect(interfaceOperatorOf("exists")).toBeNull();
  });
});

describe("condition properties", () => {
  const text = fc.oneof(
    fc.constantFrom("", " ", "vip", "VIP", "press", "7", "007", "10", "9.5", "@example.org", "a,b", "vip, press"),
    fc.string({ maxLength: 8 }),
    fc.integer({ min: -50, max: 50 }).map(String),
  );
  const email = fc.oneof(fc.constant(null), fc.emailAddress(), text);
  const visitor = fc.record({ email, promotionCodes: fc.array(text, { maxLength: 4 }) });
  const anyStatement = fc.record({
    leftHandOperand: fc.constantFrom(...STATEMENT_OPERANDS),
    operator: fc.constantFrom(...STATEMENT_OPERATORS),
    rightHandValue: text,
    scope: fc.constantFrom("is" as const, "not" as const),
  });

  it("`not` is the negation of `is`", () => {
    fc.assert(
      fc.property(anyStatement, visitor, (s, v) => {
        expect(evaluateStatement({ ...s, scope: "not" }, v)).toBe(!evaluateStatement({ ...s, scope: "is" }, v));
      }),
    );
  });

  it("`is !=` is `not =`", () => {
    fc.assert(
      fc.property(anyStatement, visitor, (s, v) => {
        const different = evaluateStatement({ ...s, operator: "!=", scope: "is" }, v);
        expect(different).toBe(evaluateStatement({ ...s, operator: "=", scope: "not" }, v));
      }),
    );
  });

  it("an `and` that holds means each statement holds; an `or` of one statement is that statement", () => {
    fc.assert(
      fc.property(fc.array(anyStatement, { minLength: 1, maxLength: 4 }), visitor, (statements, v) => {
        if (evaluateCondition({ logicalOperator: "and", statements }, v))
          for (const s of statements) expect(evaluateStatement(s, v)).toBe(true);
        const first = statements[0] as Statement;
        expect(evaluateCondition({ logicalOperator: "or", statements: [first] }, v)).toBe(evaluateStatement(first, v));
      }),
    );
  });

  it("domain matching @example.org holds for any local part, and for no other domain", () => {
    const local = fc.stringMatching(/^[a-z0-9._%+-]{1,20}$/);
    const domainMatch = statement("user_email", "contains", "@example.org");
    fc.assert(
      fc.property(local, fc.domain(), (name, domain) => {
        expect(evaluateStatement(domainMatch, { email: `${name}@example.org`, promotionCodes: [] })).toBe(true);
        expect(evaluateStatement(domainMatch, { email: `${name}@EXAMPLE.org`, promotionCodes: [] })).toBe(true);
        if (domain !== "example.org")
          expect(evaluateStatement(domainMatch, { email: `${name}@${domain}`, promotionCodes: [] })).toBe(false);
      }),
    );
  });

  it("numeric orderings agree with numeric equality", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (a, b) => {
        const v = withCodes(String(a));
        const both =
          evaluateStatement(statement("promotion_code", ">=", String(b)), v) &&
          evaluateStatement(statement("promotion_code", "<=", String(b)), v);
        expect(both).toBe(evaluateStatement(statement("promotion_code", "=", String(b)), v));
        expect(evaluateStatement(statement("promotion_code", "<", String(b)), v)).toBe(a < b);
      }),
    );
  });
});

import type { Condition } from "@ticketing/shared/schemas/catalogue";
import { describe, expect, it } from "vitest";
import {
  draftFromCondition,
  EMPTY_CONDITION,
  isDraftValid,
  statementBody,
  statementProblem,
  statementWrites,
} from "./conditionDraft.ts";

const condition: Condition = {
  id: 7,
  eventId: 1,
  name: "",
  logicalOperator: "or",
  isImplicit: true,
  statements: [
    {
      id: 2,
      eventId: 1,
      conditionId: 7,
      leftHandOperand: "user_email",
      leftHandValue: null,
      operator: "contains",
      rightHandValue: "@example.org",
      scope: "is",
      order: 1,
    },
    {
      id: 1,
      eventId: 1,
      conditionId: 7,
      leftHandOperand: "promotion_code",
      leftHandValue: null,
      operator: "is in",
      rightHandValue: "VIP,PRESS",
      scope: "not",
      order: 0,
    },
    {
      id: 3,
      eventId: 1,
      conditionId: 7,
      leftHandOperand: "promotion_code",
      leftHandValue: null,
      operator: "exists",
      rightHandValue: "",
      scope: "is",
      order: 2,
    },
  ],
};

describe("draftFromCondition", () => {
  it("maps stored operators to the interface's names, in order, and keeps the others as they are", () => {
    expect(draftFromCondition(condition)).toEqual({
      logicalOperator: "or",
      statements: [
        { operand: "promotion_code", operator: "isIn", value: "VIP,PRESS", scope: "not" },
        { operand: "user_email", operator: "contains", value: "@example.org", scope: "is" },
        { operand: "promotion_code", operator: "exists", value: "", scope: "is" },
      ],
    });
    expect(draftFromCondition(null)).toBe(EMPTY_CONDITION);
  });

  it("round-trips: the writes for an unchanged draft are none", () => {
    expect(statementWrites(condition.statements, draftFromCondition(condition), 7)).toEqual({
      create: [],
      update: [],
      delete: [],
    });
  });
});

describe("statementBody", () => {
  it("sends the stored operator and tidies is-in lists", () => {
    expect(
      statementBody({ operand: "promotion_code", operator: "isIn", value: " VIP , ,press ", scope: "is" }, 7, 0),
    ).toEqual({
      conditionId: 7,
      leftHandOperand: "promotion_code",
      operator: "is in",
      rightHandValue: "VIP,press",
      scope: "is",
      order: 0,
    });
    expect(
      statementBody({ operand: "promotion_code", operator: "equal", value: " EARLY ", scope: "not" }, 7, 3),
    ).toMatchObject({
      operator: "=",
      rightHandValue: "EARLY",
      order: 3,
    });
  });
});

describe("statementWrites", () => {
  it("updates rows in place, creates the extra drafts and deletes the surplus rows", () => {
    const draft = {
      logicalOperator: "and" as const,
      statements: [
        { operand: "promotion_code" as const, operator: "equal" as const, value: "EARLY", scope: "is" as const },
      ],
    };
    expect(statementWrites(condition.statements, draft, 7)).toEqual({
      create: [],
      update: [
        {
          id: 1,
          data: {
            conditionId: 7,
            leftHandOperand: "promotion_code",
            operator: "=",
            rightHandValue: "EARLY",
            scope: "is",
            order: 0,
          },
        },
      ],
      delete: [2, 3],
    });
    expect(statementWrites([], draft, 9).create).toEqual([
      {
        conditionId: 9,
        leftHandOperand: "promotion_code",
        operator: "=",
        rightHandValue: "EARLY",
        scope: "is",
        order: 0,
      },
    ]);
  });
});

describe("statementProblem", () => {
  it("needs a value but for exists, and a domain starting with @ for email domain matching", () => {
    expect(statementProblem({ operand: "promotion_code", operator: "equal", value: " ", scope: "is" })).toBe(
      "required",
    );
    expect(statementProblem({ operand: "promotion_code", operator: "exists", value: "", scope: "is" })).toBeNull();
    expect(statementProblem({ operand: "user_email", operator: "contains", value: "example.org", scope: "is" })).toBe(
      "domain",
    );
    expect(
      statementProblem({ operand: "user_email", operator: "contains", value: "@example.org", scope: "is" }),
    ).toBeNull();
    expect(isDraftValid({ logicalOperator: "and", statements: [] })).toBe(true);
  });
});

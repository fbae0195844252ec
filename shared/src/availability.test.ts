import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AccessRule,
  type AvailabilityWindow,
  isAccessible,
  isAvailable,
  isWithinWindow,
  type VisibilityContext,
  type VisibilityNode,
  visibleTree,
} from "./availability.ts";
import type { Condition, Visitor } from "./conditions.ts";

const vipCondition: Condition = {
  logicalOperator: "and",
  statements: [{ leftHandOperand: "promotion_code", operator: "=", rightHandValue: "VIP", scope: "is" }],
};
const staffCondition: Condition = {
  logicalOperator: "and",
  statements: [{ leftHandOperand: "user_email", operator: "contains", rightHandValue: "@example.org", scope: "is" }],
};
const conditions = new Map([
  [1, vipCondition],
  [2, staffCondition],
]);
const VIP = 1;
const STAFF = 2;
const nobody: Visitor = { email: null, promotionCodes: [] };
const vip: Visitor = { email: null, promotionCodes: ["vip"] };
const staff: Visitor = { email: "ann@example.org", promotionCodes: [] };
const staffVip: Visitor = { email: "ann@example.org", promotionCodes: ["vip"] };
const now = new Date("2026-11-21T12:00:00Z");
const at = (visitor: Visitor | null, when: Date | string = now): VisibilityContext => ({
  now: when,
  visitor,
  conditions,
});
const window = (
  startsAt: string | null,
  endsAt: string | null,
  conditionId: number | null = null,
): AvailabilityWindow => ({
  startsAt,
  endsAt,
  conditionId,
});

describe("availability windows", () => {
  it("is always available without availabilities", () => {
    expect(isAvailable([], at(nobody))).toBe(true);
  });

  it("includes both bounds, and a null bound is open", () => {
    expect(isWithinWindow(window("2026-11-21T12:00:00Z", "2026-11-22T00:00:00Z"), now)).toBe(true);
    expect(isWithinWindow(window("2026-11-01T00:00:00Z", "2026-11-21T12:00:00Z"), now)).toBe(true);
    expect(isWithinWindow(window("2026-11-21T12:00:01Z", null), now)).toBe(false);
    expect(isWithinWindow(window(null, "2026-11-21T11:59:59Z"), now)).toBe(false);
    expect(isWithinWindow(window(null, null), now)).toBe(true);
    expect(isWithinWindow({ startsAt: now.getTime(), endsAt: now }, now)).toBe(true);
  });

  it("closes a window whose bound is not a date", () => {
    expect(isWithinWindow(window("soon", null), now)).toBe(false);
    expect(isWithinWindow(window(null, null), "not a date")).toBe(false);
  });

  it("is available when any availability holds, its condition included", () => {
    const earlyBirdForVip = window("2026-11-01T00:00:00Z", "2026-11-30T00:00:00Z", VIP);
    const publicSale = window("2026-12-01T00:00:00Z", null);
    expect(isAvailable([earlyBirdForVip, publicSale], at(vip))).toBe(true);
    expect(isAvailable([earlyBirdForVip, publicSale], at(nobody))).toBe(false);
    expect(isAvailable([earlyBirdForVip, publicSale], at(nobody, new Date("2026-12-02T00:00:00Z")))).toBe(true);
    expect(isAvailable([earlyBirdForVip], at(null))).toBe(false);
  });
});

describe("access rules", () => {
  const grant = (conditionId: number | null): AccessRule => ({ isAccessible: true, conditionId });
  const deny = (conditionId: number | null): AccessRule => ({ isAccessible: false, conditionId });

  it("is visible to everyone without rules", () => {
    expect(isAccessible([], at(nobody))).toBe(true);
  });

  it("restricts to the visitors a grant holds for", () => {
    expect(isAccessible([grant(VIP)], at(vip))).toBe(true);
    expect(isAccessible([grant(VIP)], at(nobody))).toBe(false);
    expect(isAccessible([grant(VIP), grant(STAFF)], at(staff))).toBe(true);
    expect(isAccessible([grant(null)], at(nobody))).toBe(true);
  });

  it("hides from the visitors a deny holds for, and shows the others", () => {
    expect(isAccessible([deny(STAFF)], at(staff))).toBe(false);
    expect(isAccessible([deny(STAFF)], at(nobody))).toBe(true);
    expect(isAccessible([deny(null)], at(vip))).toBe(false);
  });

  it("lets a deny win over a grant that also holds", () => {
    expect(isAccessible([grant(VIP), deny(STAFF)], at(staffVip))).toBe(false);
    expect(isAccessible([grant(null), deny(STAFF)], at(staff))).toBe(false);
    expect(isAccessible([grant(VIP), deny(STAFF)], at(vip))).toBe(true);
  });

  it("without a visitor, a conditional grant hides and a conditional deny is ignored", () => {
    expect(isAccessible([grant(VIP)], at(null))).toBe(false);
    expect(isAccessible([deny(STAFF)], at(null))).toBe(true);
  });
});

interface TreeNode extends VisibilityNode<TreeNode> {
  id: number;
}
const ids = (node: TreeNode | null): number[] => (node ? [node.id, ...node.children.flatMap(ids)] : []);

describe("visible tree", () => {
  const tree: TreeNode = {
    id: 1,
    children: [
      {
        id: 2,
        accesses: [{ isAccessible: true, conditionId: VIP }],
        children: [{ id: 3, children: [{ id: 4, children: [] }] }],
      },
      { id: 5, availabilities: [window("2026-12-01T00:00:00Z", null)], children: [{ id: 6, children: [] }] },
      { id: 7, children: [] },
    ],
  };

  it("drops hidden nodes with their subtree, keeping the order and the other fields", () => {
    expect(ids(visibleTree(tree, at(nobody)))).toEqual([1, 7]);
    expect(ids(visibleTree(tree, at(vip)))).toEqual([1, 2, 3, 4, 7]);
    expect(ids(visibleTree(tree, at(vip, new Date("2026-12-01T00:00:00Z"))))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("is null when the root is hidden", () => {
    const hidden: TreeNode = { ...tree, accesses: [{ isAccessible: false, conditionId: null }] };
    expect(visibleTree(hidden, at(vip))).toBeNull();
  });

  it("does not change the tree it is given", () => {
    visibleTree(tree, at(nobody));
    expect(ids(tree)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe("visibility properties", () => {
  const visitor = fc.constantFrom<Visitor | null>(null, nobody, vip, staff, staffVip);
  const conditionId = fc.constantFrom<number | null>(null, VIP, STAFF, 404);
  const access = fc.record({ isAccessible: fc.boolean(), conditionId });
  const day = fc.integer({ min: 0, max: 60 }).map((d) => new Date(Date.UTC(2026, 10, 1 + d)).toISOString());
  const availability = fc.record({
    startsAt: fc.option(day, { nil: null }),
    endsAt: fc.option(day, { nil: null }),
    conditionId,
  });
  const treeOfDepth = (depth: number): fc.Arbitrary<TreeNode> =>
    fc.record({
      id: fc.nat(),
      accesses: fc.array(access, { maxLength: 2 }),
      availabilities: fc.array(availability, { maxLength: 2 }),
      children: depth === 0 ? fc.constant([]) : fc.array(treeOfDepth(depth - 1), { maxLength: 3 }),
    });
  const tree = treeOfDepth(3);

  it("a holding deny always hides; adding a rule that holds for nobody never reveals a node", () => {
    fc.assert(
      fc.property(fc.array(access, { maxLength: 4 }), visitor, (rules, v) => {
        expect(isAccessible([...rules, { isAccessible: false, conditionId: null }], at(v))).toBe(false);
        if (!isAccessible(rules, at(v)))
          expect(isAccessible([...rules, { isAccessible: false, conditionId: 404 }], at(v))).toBe(false);
      }),
    );
  });

  it("every node of a visible tree is shown by itself, and a hidden parent hides its whole subtree", () => {
    fc.assert(
      fc.property(tree, visitor, day, (root, v, when) => {
        const context = at(v, when);
        const visible = visibleTree(root, context);
        const check = (node: TreeNode) => {
          expect(isAccessible(node.accesses ?? [], context) && isAvailable(node.availabilities ?? [], context)).toBe(
            true,
          );
          node.children.forEach(check);
        };
        if (visible) check(visible);
        // reference: a node counts when it is shown and so are all its ancestors
        const shown = (node: TreeNode) =>
          isAccessible(node.accesses ?? [], context) && isAvailable(node.availabilities ?? [], context);
        const reference = (node: TreeNode): number[] =>
          shown(node) ? [node.id, ...node.children.flatMap(reference)] : [];
        expect(ids(visible)).toEqual(reference(root));
      }),
    );
  });
});

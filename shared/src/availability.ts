// Availability windows and access rules (docs/design.md §4 "Conditions"): what a visitor may see at a given moment.
// Pure: the clock (`now`) and the conditions are passed in.
//
// Decisions:
// - Availabilities: a node with none is always available; otherwise it is available when ANY of them holds: its
//   window contains `now` (both bounds inclusive, a null bound open) and its condition holds. A bound that is
//   not a valid date closes the window: a typo must not open sales early.
// - Accesses: a node with none is visible to everyone. Otherwise a holding `isAccessible=false` rule (a deny)
//   hides it, whatever else holds: deny wins, so "hide from @competitor.com" cannot be undone by a broad grant.
//   Without a holding deny, grants restrict: when the node has at least one grant, one of them must hold
//   ("only for VIP codes"); a node with only deny rules is visible to everyone they do not hit.
// - Conditions are evaluated by `conditionHolds`: no condition holds; without a visitor, or with a condition
//   that is not loaded, a conditional rule does not hold (a conditional grant hides, a conditional deny is ignored).
// - The tree filter hides a node that is not accessible OR not available, and with it its whole subtree: an
//   option of a hidden article, an article of a hidden group cannot be bought by another path.
import { type Condition, conditionHolds, type Visitor } from "./conditions.ts";

/** A moment: a Date, epoch milliseconds, or an ISO 8601 string (stored `starts_at`/`ends_at`). */
export type Instant = Date | number | string;

export interface AvailabilityWindow {
  startsAt: Instant | null;
  endsAt: Instant | null;
  conditionId: number | null;
}

export interface AccessRule {
  isAccessible: boolean;
  conditionId: number | null;
}

export interface VisibilityContext {
  now: Instant;
  visitor: Visitor | null;
  conditions: ReadonlyMap<number, Condition>;
}

/** Epoch milliseconds, NaN when the value is not a date. */
function toMillis(instant: Instant): number {
  if (instant instanceof Date) return instant.getTime();
  if (typeof instant === "number") return instant;
  return Date.parse(instant);
}

export function isWithinWindow(window: Pick<AvailabilityWindow, "startsAt" | "endsAt">, now: Instant): boolean {
  const at = toMillis(now);
  if (Number.isNaN(at)) return false;
  const starts = window.startsAt === null ? Number.NEGATIVE_INFINITY : toMillis(window.startsAt);
  const ends = window.endsAt === null ? Number.POSITIVE_INFINITY : toMillis(window.endsAt);
  // comparisons with NaN are false: an unreadable bound closes the window
  return starts <= at && at <= ends;
}

export function isAvailable(availabilities: readonly AvailabilityWindow[], context: VisibilityContext): boolean {
  if (availabilities.length === 0) return true;
  return availabilities.some(
    (availability) =>
      isWithinWindow(availability, context.now) &&
      conditionHolds(availability.conditionId, context.conditions, context.visitor),
  );
}

export function isAccessible(
  accesses: readonly AccessRule[],
  context: Pick<VisibilityContext, "visitor" | "conditions">,
): boolean {
  const holding = (rule: AccessRule) => conditionHolds(rule.conditionId, context.conditions, context.visitor);
  if (accesses.some((rule) => !rule.isAccessible && holding(rule))) return false;
  const grants = accesses.filter((rule) => rule.isAccessible);
  return grants.length === 0 || grants.some(holding);
}

export interface VisibilityNode<T> {
  accesses?: readonly AccessRule[];
  availabilities?: readonly AvailabilityWindow[];
  children: readonly T[];
}

/** Whether the node itself may be shown (its ancestors are the caller's business, see `visibleTree`). */
export function isNodeShown(node: Omit<VisibilityNode<unknown>, "children">, context: VisibilityContext): boolean {
  return isAccessible(node.accesses ?? [], context) && isAvailable(node.availabilities ?? [], context);
}

/**
 * The part of a tree a visitor may see at `now`: a copy in which every hidden node is dropped with its subtree;
 * null when the root itself is hidden. Other fields are kept as they are.
 */
export function visibleTree<T extends VisibilityNode<T>>(root: T, context: VisibilityContext): T | null {
  if (!isNodeShown(root, context)) return null;
  const children = root.children.flatMap((child) => {
    const visible = visibleTree(child, context);
    return visible === null ? [] : [visible];
  });
  return { ...root, children };
}

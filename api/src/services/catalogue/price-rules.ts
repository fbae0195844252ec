// The order of price rules (docs/decisions/0032): a rule moves one place up or down in the list of rules that price
// one element; the event's rules keep one dense `order`, which every element's fold follows.
import { type Database, eq, run, schema } from "@ticketing/db";
import { movePriceRuleWrites } from "@ticketing/shared/price-steps";
import type { PriceRuleMove } from "@ticketing/shared/schemas/catalogue";
import { conflict, invalid, notFound } from "../../lib/errors.ts";
import { getVisibleEvent, type User } from "../accounts/access.ts";
import { startEventChange } from "../events/event-changes.ts";
import { attachedRules, loadCatalogue } from "./catalogue.ts";
import { getCatalogueRow } from "./catalogue-resources.ts";
import type { Row } from "./resource-specs.ts";

/**
 * Moves a rule of a draft event the user may see (any event for a superuser) one place up or down among the
 * rules pricing `nodeId`, and answers it. 404: no such rule for this user; 409: the event is locked, or the rule
 * is already first (up) or last (down) there; 400: the element is not of the rule's event or not priced by it.
 */
export async function movePriceRule(
  database: Database,
  user: User,
  ruleId: number,
  move: PriceRuleMove,
  supportEmail: string,
): Promise<Row> {
  const { db } = database;
  const rule = await db.select().from(schema.nodePriceRules).where(eq(schema.nodePriceRules.id, ruleId)).get();
  if (!rule) throw notFound();
  const change = startEventChange(await getVisibleEvent(db, user, rule.eventId), user, supportEmail);
  const catalogue = await loadCatalogue(db, rule.eventId);
  const node = catalogue.byId.get(move.nodeId);
  if (!node) throw invalid("errors.node_not_in_event", { node_id: "errors.node_not_in_event" });
  const view = attachedRules(catalogue, node).map((attached) => attached.id);
  if (!view.includes(rule.id))
    throw invalid("errors.price_rule_not_attached", { node_id: "errors.price_rule_not_attached" });
  await database.transaction(function* (tx) {
    // A new order of rules is a new price: an approved event goes back to moderation (ADR 0031).
    yield* change.record(tx);
    // The orders as they are now, inside the write: a concurrent move is never undone by a stale read.
    const eventRules = yield* run(
      tx
        .select({ id: schema.nodePriceRules.id, order: schema.nodePriceRules.order })
        .from(schema.nodePriceRules)
        .where(eq(schema.nodePriceRules.eventId, rule.eventId))
        .all(),
    );
    const writes = movePriceRuleWrites(eventRules, view, rule.id, move.direction);
    if (!writes) throw conflict(`errors.price_rule_${move.direction === "up" ? "first" : "last"}`);
    for (const write of writes)
      yield* run(
        tx
          .update(schema.nodePriceRules)
          .set({ order: write.order })
          .where(eq(schema.nodePriceRules.id, write.id))
          .run(),
      );
  });
  return getCatalogueRow(db, user, "node-price-rules", rule.id);
}

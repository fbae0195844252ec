// Editing the element tree (issue 4): move with dense ordering, duplicate a subtree, Lausanne tax downwards.
import { and, asc, type Database, type Db, eq, gt, inArray, run, schema, sql } from "@ticketing/db";
import { conflict, invalid, notFound } from "../../lib/errors.ts";
import { getVisibleEvent, type User } from "../accounts/access.ts";
import { type EventChange, startEventChange } from "../events/event-changes.ts";
import { type Catalogue, type CatalogueNode, loadCatalogue } from "./catalogue.ts";

type Tx = Db;
type NodeRow = typeof schema.nodes.$inferSelect;

function descendantIds(node: CatalogueNode): number[] {
  return node.children.flatMap((child) => [child.id, ...descendantIds(child)]);
}

/** Rewrites the children's `order` as 0, 1, 2… in their current order, `first` put at `position` if given. */
function* renumber(tx: Tx, parentId: number, first?: { id: number; position: number }) {
  const siblings = yield* run(
    tx
      .select({ id: schema.nodes.id })
      .from(schema.nodes)
      .where(eq(schema.nodes.parentId, parentId))
      .orderBy(asc(schema.nodes.order), asc(schema.nodes.id))
      .all(),
  );
  const ids = siblings.map((s) => s.id).filter((id) => id !== first?.id);
  if (first) ids.splice(Math.min(first.position, ids.length), 0, first.id);
  for (const [order, id] of ids.entries())
    yield* run(tx.update(schema.nodes).set({ order }).where(eq(schema.nodes.id, id)).run());
}

/**
 * Where a node may go: under another node of its event, never under itself or its own subtree (a cycle, which
 * every walk of the tree would follow forever), never under an option; the root stays the root.
 */
export function assertNewParent(catalogue: Catalogue, nodeId: number, parentId: number) {
  const parent = catalogue.byId.get(parentId);
  const self = catalogue.byId.get(nodeId);
  if (self?.parentId === null) throw conflict("errors.root_node_move");
  if (!parent || !self) throw invalid("errors.parent_not_in_event", { parent_id: "errors.parent_not_in_event" });
  if (parent.id === self.id || descendantIds(self).includes(parent.id))
    throw invalid("errors.move_into_itself", { parent_id: "errors.move_into_itself" });
  if (parent.configuration.category === "option")
    throw invalid("errors.option_leaf", { parent_id: "errors.option_leaf" });
  return parent;
}

/**
 * The node and the change of its event, if the user may edit it: otherwise 404 (unknown, or not visible) or 409
 * (not a draft).
 */
async function editableNode(
  db: Db,
  user: User,
  nodeId: number,
  supportEmail: string,
): Promise<{ node: NodeRow; change: EventChange }> {
  const node = await db.select().from(schema.nodes).where(eq(schema.nodes.id, nodeId)).get();
  if (!node) throw notFound();
  return { node, change: startEventChange(await getVisibleEvent(db, user, node.eventId), user, supportEmail) };
}

/** Moves a node (with its subtree) under `parentId` at `order`; both parents keep a dense order. */
export async function moveNode(
  database: Database,
  user: User,
  nodeId: number,
  target: { parentId: number; order: number },
  supportEmail: string,
) {
  const { node, change } = await editableNode(database.db, user, nodeId, supportEmail);
  if (node.parentId === null) throw conflict("errors.root_node_move");
  const catalogue = await loadCatalogue(database.db, node.eventId);
  const parent = assertNewParent(catalogue, node.id, target.parentId);
  const oldParentId = node.parentId;
  const moved = await database.transaction(function* (tx) {
    yield* change.record(tx);
    yield* run(tx.update(schema.nodes).set({ parentId: parent.id }).where(eq(schema.nodes.id, node.id)).run());
    yield* renumber(tx, parent.id, { id: node.id, position: target.order });
    if (oldParentId !== parent.id) yield* renumber(tx, oldParentId);
    return yield* run(tx.select().from(schema.nodes).where(eq(schema.nodes.id, node.id)).get());
  });
  return moved;
}

const LINKS = [
  schema.nodeConfigurationAccesses,
  schema.nodeConfigurationAvailabilities,
  schema.nodeConfigurationExtraInfoGroups,
  schema.nodeConfigurationLimits,
  schema.nodeConfigurationPriceRules,
] as unknown as (typeof schema.nodeConfigurationAccesses)[];

/** Copies a node and its subtree right after it: new configurations, linked to the same rules and stocks. */
export async function duplicateNode(database: Database, user: User, nodeId: number, supportEmail: string) {
  const { node, change } = await editableNode(database.db, user, nodeId, supportEmail);
  if (node.parentId === null) throw conflict("errors.root_node_delete");
  const catalogue: Catalogue = await loadCatalogue(database.db, node.eventId);
  const source = catalogue.byId.get(node.id);
  if (!source) throw notFound();
  const parentId = node.parentId;
  const duplicate = await database.transaction(function* (tx) {
    yield* change.record(tx);
    // Make room after the original.
    yield* run(
      tx
        .update(schema.nodes)
        .set({ order: sql`${schema.nodes.order} + 1` })
        .where(and(eq(schema.nodes.parentId, parentId), gt(schema.nodes.order, node.order)))
        .run(),
    );
    function* copy(original: CatalogueNode, newParentId: number, order: number): Generator<unknown, NodeRow, unknown> {
      const { id: _c, ...configuration } = original.configuration;
      const newConfiguration = yield* run(tx.insert(schema.nodeConfigurations).values(configuration).returning().get());
      const { id: _k, ...cart } = original.cart;
      const newCart = yield* run(tx.insert(schema.nodeCartConfigurations).values(cart).returning().get());
      for (const link of LINKS) {
        const rows = yield* run(
          tx.select().from(link).where(eq(link.nodeConfigurationId, original.configurationId)).all(),
        );
        for (const row of rows)
          yield* run(
            tx.insert(link).values({ nodeConfigurationId: newConfiguration.id, targetId: row.targetId }).run(),
          );
      }
      const tags = yield* run(
        tx
          .select()
          .from(schema.nodeTags)
          .where(eq(schema.nodeTags.nodeConfigurationId, original.configurationId))
          .all(),
      );
      for (const { id: _t, ...tag } of tags)
        yield* run(
          tx
            .insert(schema.nodeTags)
            .values({ ...tag, nodeConfigurationId: newConfiguration.id })
            .run(),
        );
      const created = yield* run(
        tx
          .insert(schema.nodes)
          .values({
            eventId: original.eventId,
            parentId: newParentId,
            order,
            configurationId: newConfiguration.id,
            cartConfigurationId: newCart.id,
          })
          .returning()
          .get(),
      );
      for (const [index, child] of original.children.entries()) yield* copy(child, created.id, index);
      return created;
    }
    return yield* copy(source, parentId, node.order + 1);
  });
  return duplicate;
}

/** docs/specification.md §5: disabling the Lausanne tax on an element disables it on all its children. */
export function* clearLausanneTaxBelow(tx: Tx, catalogue: Catalogue, configurationId: number) {
  const owners = [...catalogue.byId.values()].filter((n) => n.configurationId === configurationId);
  const below = owners.flatMap((owner) => descendantIds(owner)).map((id) => catalogue.byId.get(id)?.configurationId);
  const ids = below.filter((id): id is number => id !== undefined);
  if (ids.length)
    yield* run(
      tx
        .update(schema.nodeConfigurations)
        .set({ isSubjectToLausanneTax: false })
        .where(inArray(schema.nodeConfigurations.id, ids))
        .run(),
    );
}

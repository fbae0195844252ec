// Baskets and what they hold (docs/specification.md §3, docs/design.md §4 "Basket lifecycle").

import { BASKET_STATUSES, LANGUAGES, SELECTED_NODE_STATUSES } from "@ticketing/shared/constants";
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import {
  nodeConfigurations,
  nodeExtraInfoGroups,
  nodeExtraInfos,
  nodeLimits,
  nodes,
  promotionCodes,
} from "./catalogue.ts";
import { bool, createdAt, french, id } from "./columns.ts";
import { events, frontendLogins } from "./events.ts";

export const billingInformation = sqliteTable("billing_information", {
  id: id(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  address: text("address").notNull(),
  postalCode: text("postal_code").notNull(),
  city: text("city").notNull(),
  country: text("country").notNull(),
  createdById: integer("created_by_id").references(() => frontendLogins.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  /** When support erased the buyer's personal data (docs/decisions/0046): the fields above then hold placeholders. */
  erasedAt: text("erased_at"),
});

export const baskets = sqliteTable(
  "baskets",
  {
    id: id(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    createdById: integer("created_by_id")
      .notNull()
      .references(() => frontendLogins.id, { onDelete: "cascade" }),
    status: text("status", { enum: BASKET_STATUSES }).notNull().default("new"),
    testing: bool("testing").notNull().default(false),
    billingInformationId: integer("billing_information_id").references(() => billingInformation.id, {
      onDelete: "set null",
    }),
    /** The buyer's language at checkout: confirmation email and tickets use it. */
    language: text("language", { enum: LANGUAGES }).notNull().default("en"),
    /** A short public reference (point-of-sale payments, support). */
    unikey: text("unikey").notNull().unique(),
    /**
     * Until when a `new` basket holds its articles: the reservation time from the hold's start (its opening, an add
     * after the last hold ran out, or a hold-again, which `holdRenewals` counts); an add or a removal does not move it.
     */
    expiresAt: text("expires_at").notNull(),
    /** How many times its buyer renewed the hold (at most the event's `max_hold_renewals`). */
    holdRenewals: integer("hold_renewals").notNull().default(0),
    /**
     * Moved by every change to the basket's held lines (a line held, given back, moved or deleted), by triggers
     * (migration 0011): an add's guard compares it with the one it read (docs/decisions/0041).
     */
    heldVersion: integer("held_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: text("updated_at"),
  },
  (t) => [index("baskets_event_status").on(t.eventId, t.status), index("baskets_login").on(t.createdById, t.eventId)],
);

/** An article in a basket, or an option of one (parentId set). Its price is computed by the server when added. */
export const selectedNodes = sqliteTable(
  "selected_nodes",
  {
    id: id(),
    basketId: integer("basket_id")
      .notNull()
      .references(() => baskets.id, { onDelete: "cascade" }),
    nodeId: integer("node_id").references(() => nodes.id, { onDelete: "set null" }),
    parentId: integer("parent_id").references((): AnySQLiteColumn => selectedNodes.id, { onDelete: "cascade" }),
    configurationId: integer("configuration_id").references(() => nodeConfigurations.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    /** The element's French title when it was added (empty: none; the English is read). */
    titleFr: french("title_fr"),
    isArticle: bool("is_article").notNull(),
    isSubjectToLausanneTax: bool("is_subject_to_lausanne_tax").notNull().default(false),
    price: integer("price").notNull(), // cents
    status: text("status", { enum: SELECTED_NODE_STATUSES }).notNull().default("held"),
    createdAt: createdAt(),
  },
  // The basket's index holds what an add reads of its held lines (their nodes, which are articles): read from it alone.
  (t) => [
    index("selected_nodes_basket").on(t.basketId, t.status, t.nodeId, t.isArticle),
    index("selected_nodes_parent").on(t.parentId),
  ],
);

/** Which stock counters a selected node moved: released exactly from those (docs/design.md §4 "Stock"). */
export const selectedNodeLimits = sqliteTable(
  "selected_node_limits",
  {
    selectedNodeId: integer("selected_node_id")
      .notNull()
      .references(() => selectedNodes.id, { onDelete: "cascade" }),
    limitId: integer("limit_id")
      .notNull()
      .references(() => nodeLimits.id, { onDelete: "cascade" }),
    isTesting: bool("is_testing").notNull(),
  },
  (t) => [primaryKey({ columns: [t.selectedNodeId, t.limitId] }), index("selected_node_limits_limit").on(t.limitId)],
);

/** The form answers of an article, read per article (its page, the participants export): indexed by it. */
export const selectedNodeExtraInfoGroups = sqliteTable(
  "selected_node_extra_info_groups",
  {
    id: id(),
    selectedNodeId: integer("selected_node_id")
      .notNull()
      .references(() => selectedNodes.id, { onDelete: "cascade" }),
    groupId: integer("group_id").references(() => nodeExtraInfoGroups.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    nameFr: french("name_fr"),
    isRequired: bool("is_required").notNull().default(false),
  },
  (t) => [index("selected_node_extra_info_groups_node").on(t.selectedNodeId)],
);

export const selectedNodeExtraInfos = sqliteTable(
  "selected_node_extra_infos",
  {
    id: id(),
    selectedGroupId: integer("selected_group_id")
      .notNull()
      .references(() => selectedNodeExtraInfoGroups.id, { onDelete: "cascade" }),
    extraInfoId: integer("extra_info_id").references(() => nodeExtraInfos.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    nameFr: french("name_fr"),
    type: text("type").notNull(),
    value: text("value"),
  },
  (t) => [index("selected_node_extra_infos_group").on(t.selectedGroupId)],
);

export const selectedPromotionCodes = sqliteTable(
  "selected_promotion_codes",
  {
    id: id(),
    basketId: integer("basket_id")
      .notNull()
      .references(() => baskets.id, { onDelete: "cascade" }),
    promotionCodeId: integer("promotion_code_id")
      .notNull()
      .references(() => promotionCodes.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("selected_promotion_codes_basket_code").on(t.basketId, t.promotionCodeId)],
);

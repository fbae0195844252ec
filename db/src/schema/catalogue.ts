// The element tree and its rules (docs/specification.md §3, docs/design.md §4 "Element tree", "Price", "Conditions",
// "Stock").

import {
  EXTRA_INFO_TYPES,
  LOGICAL_OPERATORS,
  NODE_CATEGORIES,
  PRICE_RULE_MODES,
  STATEMENT_OPERANDS,
  STATEMENT_OPERATORS,
  STATEMENT_SCOPES,
} from "@ticketing/shared/constants";
import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { bool, french, id } from "./columns.ts";
import { events, uploadedImages } from "./events.ts";

const eventId = () =>
  integer("event_id")
    .notNull()
    .references(() => events.id, { onDelete: "cascade" });

export const conditions = sqliteTable("conditions", {
  id: id(),
  eventId: eventId(),
  name: text("name").notNull().default(""),
  logicalOperator: text("logical_operator", { enum: LOGICAL_OPERATORS }).notNull().default("and"),
  isImplicit: bool("is_implicit").notNull().default(false),
});

export const statements = sqliteTable("statements", {
  id: id(),
  eventId: eventId(),
  conditionId: integer("condition_id")
    .notNull()
    .references(() => conditions.id, { onDelete: "cascade" }),
  leftHandOperand: text("left_hand_operand", { enum: STATEMENT_OPERANDS }).notNull(),
  leftHandValue: text("left_hand_value"),
  operator: text("operator", { enum: STATEMENT_OPERATORS }).notNull(),
  rightHandValue: text("right_hand_value").notNull().default(""),
  scope: text("scope", { enum: STATEMENT_SCOPES }).notNull().default("is"),
  order: integer("order").notNull().default(0),
});

const conditionId = () => integer("condition_id").references(() => conditions.id, { onDelete: "set null" });

export const nodeConfigurations = sqliteTable("node_configurations", {
  id: id(),
  eventId: eventId(),
  category: text("category", { enum: NODE_CATEGORIES }).notNull(),
  title: text("title").notNull().default(""),
  titleFr: french("title_fr"),
  description: text("description").notNull().default(""),
  descriptionFr: french("description_fr"),
  imageId: integer("image_id").references(() => uploadedImages.id, { onDelete: "set null" }),
  imageStyle: text("image_style"),
  itemStyle: text("item_style"),
  isTitleDisplayable: bool("is_title_displayable").notNull().default(true),
  isImageDisplayable: bool("is_image_displayable").notNull().default(true),
  isDescriptionDisplayable: bool("is_description_displayable").notNull().default(true),
  isTagsDisplayable: bool("is_tags_displayable").notNull().default(true),
  isSubjectToLausanneTax: bool("is_subject_to_lausanne_tax").notNull().default(false),
  isRequired: bool("is_required").notNull().default(false),
  /** An article's cap per buyer (login), over all their open and sold baskets; null: no cap of its own. */
  maxPerBuyer: integer("max_per_buyer"),
});

export const nodeCartConfigurations = sqliteTable(
  "node_cart_configurations",
  {
    id: id(),
    eventId: eventId(),
    weight: integer("weight").notNull().default(1),
    rangeMin: integer("range_min").notNull().default(0),
    rangeMax: integer("range_max"),
  },
  (t) => [check("node_cart_configurations_range", sql`${t.rangeMax} IS NULL OR ${t.rangeMax} >= ${t.rangeMin}`)],
);

export const nodes = sqliteTable(
  "nodes",
  {
    id: id(),
    eventId: eventId(),
    parentId: integer("parent_id").references((): AnySQLiteColumn => nodes.id, { onDelete: "cascade" }),
    order: integer("order").notNull().default(0),
    configurationId: integer("configuration_id")
      .notNull()
      .references(() => nodeConfigurations.id),
    cartConfigurationId: integer("cart_configuration_id")
      .notNull()
      .references(() => nodeCartConfigurations.id),
  },
  (t) => [index("nodes_event").on(t.eventId), index("nodes_parent").on(t.parentId, t.order)],
);

export const nodeTags = sqliteTable("node_tags", {
  id: id(),
  eventId: eventId(),
  name: text("name").notNull(),
  nameFr: french("name_fr"),
  nodeConfigurationId: integer("node_configuration_id").references(() => nodeConfigurations.id, {
    onDelete: "cascade",
  }),
});

export const nodeAccesses = sqliteTable("node_accesses", {
  id: id(),
  eventId: eventId(),
  label: text("label").notNull().default(""),
  labelFr: french("label_fr"),
  isAccessible: bool("is_accessible").notNull().default(true),
  conditionId: conditionId(),
});

export const nodeAvailabilities = sqliteTable("node_availabilities", {
  id: id(),
  eventId: eventId(),
  name: text("name").notNull().default(""),
  nameFr: french("name_fr"),
  startsAt: text("starts_at"),
  endsAt: text("ends_at"),
  conditionId: conditionId(),
});

export const nodeExtraInfoGroups = sqliteTable("node_extra_info_groups", {
  id: id(),
  eventId: eventId(),
  name: text("name").notNull(),
  nameFr: french("name_fr"),
  order: integer("order").notNull().default(0),
  isInline: bool("is_inline").notNull().default(false),
  helpText: text("help_text").notNull().default(""),
  helpTextFr: french("help_text_fr"),
  isRequired: bool("is_required").notNull().default(false),
  conditionId: conditionId(),
});

export const nodeExtraInfos = sqliteTable("node_extra_infos", {
  id: id(),
  eventId: eventId(),
  groupId: integer("group_id")
    .notNull()
    .references(() => nodeExtraInfoGroups.id, { onDelete: "cascade" }),
  text: text("text").notNull().default(""),
  textFr: french("text_fr"),
  name: text("name").notNull(),
  nameFr: french("name_fr"),
  helpText: text("help_text").notNull().default(""),
  helpTextFr: french("help_text_fr"),
  type: text("type", { enum: EXTRA_INFO_TYPES }).notNull(),
  isRequired: bool("is_required").notNull().default(false),
  order: integer("order").notNull().default(0),
  choicesJson: text("choices_json", { mode: "json" }).$type<string[]>(),
  /** The choices' French, in the same order (a shorter list: the rest read in English); answers keep the English. */
  choicesFrJson: text("choices_fr_json", { mode: "json" }).$type<string[]>(),
  majorJson: text("major_json", { mode: "json" }).$type<{ referenceDate?: string; age?: number }>(),
  range: text("range"),
});

/**
 * A stock: a shared quota over every selected article linked to it. `used` and `testingUsed` are
 * counters moved in the same transaction as the selected nodes (docs/design.md §4 "Stock"); the CHECK
 * constraints make overselling impossible even if application code were wrong.
 */
export const nodeLimits = sqliteTable(
  "node_limits",
  {
    id: id(),
    eventId: eventId(),
    label: text("label").notNull().default(""),
    labelFr: french("label_fr"),
    maximum: integer("maximum").notNull(),
    order: integer("order").notNull().default(0),
    conditionId: conditionId(),
    used: integer("used").notNull().default(0),
    testingUsed: integer("testing_used").notNull().default(0),
    /**
     * What waiting-list entries in line ask of this stock (real and testing apart, docs/decisions/0038): a public
     * take needs `used + n + waiting <= maximum`, so stock freed while entries wait is theirs first.
     */
    waiting: integer("waiting").notNull().default(0),
    testingWaiting: integer("testing_waiting").notNull().default(0),
  },
  (t) => [
    // The tree reads every counter of its event on each request.
    index("node_limits_event").on(t.eventId),
    check("node_limits_used", sql`${t.used} >= 0 AND ${t.used} <= ${t.maximum}`),
    check("node_limits_testing_used", sql`${t.testingUsed} >= 0 AND ${t.testingUsed} <= ${t.maximum}`),
    check("node_limits_waiting", sql`${t.waiting} >= 0 AND ${t.testingWaiting} >= 0`),
  ],
);

export const nodePriceRules = sqliteTable("node_price_rules", {
  id: id(),
  eventId: eventId(),
  label: text("label").notNull().default(""),
  labelFr: french("label_fr"),
  mode: text("mode", { enum: PRICE_RULE_MODES }).notNull(),
  value: integer("value").notNull(),
  order: integer("order").notNull().default(0),
  shouldPropagate: bool("should_propagate").notNull().default(false),
  conditionId: conditionId(),
});

function configurationLink<T extends string>(table: string, column: T, target: () => AnySQLiteColumn) {
  return sqliteTable(
    table,
    {
      nodeConfigurationId: integer("node_configuration_id")
        .notNull()
        .references(() => nodeConfigurations.id, { onDelete: "cascade" }),
      targetId: integer(column).notNull().references(target, { onDelete: "cascade" }),
    },
    (t) => [primaryKey({ columns: [t.nodeConfigurationId, t.targetId] }), index(`${table}_target`).on(t.targetId)],
  );
}

// Many-to-many links between a node configuration and its rules (docs/specification.md §3).
export const nodeConfigurationAccesses = configurationLink(
  "node_configuration_accesses",
  "access_id",
  () => nodeAccesses.id,
);
export const nodeConfigurationAvailabilities = configurationLink(
  "node_configuration_availabilities",
  "availability_id",
  () => nodeAvailabilities.id,
);
export const nodeConfigurationExtraInfoGroups = configurationLink(
  "node_configuration_extra_info_groups",
  "extra_info_group_id",
  () => nodeExtraInfoGroups.id,
);
export const nodeConfigurationLimits = configurationLink("node_configuration_limits", "limit_id", () => nodeLimits.id);
export const nodeConfigurationPriceRules = configurationLink(
  "node_configuration_price_rules",
  "price_rule_id",
  () => nodePriceRules.id,
);

/**
 * A number per event that every write to the event's element tree and its rules moves on, by the triggers of
 * migration 0006 (not the stock counters `used`/`testing_used`, which move on every add): a process caching the
 * tree compares it with one indexed read and sees any other process's or replica's change at once
 * (docs/decisions/0019).
 */
export const catalogueVersions = sqliteTable("catalogue_versions", {
  eventId: integer("event_id")
    .primaryKey()
    .references(() => events.id, { onDelete: "cascade" }),
  version: integer("version").notNull().default(0),
});

export const promotionCodes = sqliteTable(
  "promotion_codes",
  {
    id: id(),
    eventId: eventId(),
    name: text("name").notNull(),
    value: text("value").notNull(),
  },
  (t) => [uniqueIndex("promotion_codes_event_value").on(t.eventId, sql`lower(${t.value})`)],
);

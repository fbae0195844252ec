// The element tree's resources (docs/design.md §3, docs/specification.md §3): elements (nodes), their configurations
// and the rules linked to them, as the back office's editor reads and writes them through ra-data-simple-rest.
import { z } from "zod";
import {
  EXTRA_INFO_TYPES,
  LOGICAL_OPERATORS,
  MAX_TICKETS_PER_BUYER,
  NODE_CATEGORIES,
  PRICE_RULE_DIRECTIONS,
  PRICE_RULE_MODES,
  STATEMENT_OPERANDS,
  STATEMENT_OPERATORS,
  STATEMENT_SCOPES,
} from "../constants.ts";
import { Id, IsoDate, zId, zIsoDate } from "./common.ts";

const title = z.string().trim().max(200);
const flag = z.boolean();
/** The French of an organiser's text (docs/decisions/0043): empty until written, then buyers in French read it. */
const french = (max: number) => z.string().trim().max(max);

/** A rule shared by element configurations: the configurations it applies to, replaced as a whole. */
const Linked = { nodeConfigurationIds: z.array(zId).max(10_000) };

/** A new row: its event, the `required` fields, the others optional. */
function creation<F extends z.ZodRawShape, R extends keyof F & string>(fields: F, required: readonly R[]) {
  const shape = Object.fromEntries(
    Object.entries(fields).map(([key, field]) => [
      key,
      required.includes(key as R) ? field : (field as z.ZodType).optional(),
    ]),
  ) as { [K in keyof F]: K extends R ? F[K] : z.ZodOptional<F[K]> };
  return z.strictObject({ eventId: zId, ...shape });
}

/** The fields to change; the admin's form sends the record back, whose read-only fields are accepted and ignored. */
function update<F extends z.ZodRawShape>(fields: F) {
  return z
    .strictObject({
      id: z.unknown(),
      eventId: z.unknown(),
      ...fields,
      reserved: z.unknown(),
      sold: z.unknown(),
      remaining: z.unknown(),
      used: z.unknown(),
      testingUsed: z.unknown(),
      childrenIds: z.unknown(),
    })
    .partial();
}

/** Every row belongs to one event. */
const Row = { id: Id, eventId: Id };
const LinkedRow = { nodeConfigurationIds: z.array(Id) };

// Element configurations: what an element is (its category) and how the ticket office shows it.
const NodeConfigurationFields = {
  category: z.enum(NODE_CATEGORIES),
  title,
  titleFr: french(200),
  description: z.string().max(20_000),
  descriptionFr: french(20_000),
  imageId: zId.nullable(),
  imageStyle: z.string().max(100).nullable(),
  itemStyle: z.string().max(100).nullable(),
  isTitleDisplayable: flag,
  isImageDisplayable: flag,
  isDescriptionDisplayable: flag,
  isTagsDisplayable: flag,
  isSubjectToLausanneTax: flag,
  isRequired: flag,
  /** At most this many of an article per buyer over all their baskets on the event (null: no cap; articles only). */
  maxPerBuyer: z.number().int().min(1).max(MAX_TICKETS_PER_BUYER).nullable(),
};
export const NodeConfigurationCreate = creation(NodeConfigurationFields, ["category"]);
export const NodeConfigurationUpdate = update(NodeConfigurationFields);
export const NodeConfiguration = z.object({
  ...Row,
  category: z.enum(NODE_CATEGORIES),
  title: z.string(),
  titleFr: z.string(),
  description: z.string(),
  descriptionFr: z.string(),
  imageId: Id.nullable(),
  imageStyle: z.string().nullable(),
  itemStyle: z.string().nullable(),
  isTitleDisplayable: z.boolean(),
  isImageDisplayable: z.boolean(),
  isDescriptionDisplayable: z.boolean(),
  isTagsDisplayable: z.boolean(),
  isSubjectToLausanneTax: z.boolean(),
  isRequired: z.boolean(),
  maxPerBuyer: z.number().int().nullable(),
});
export type NodeConfiguration = z.infer<typeof NodeConfiguration>;

// Cart configurations: an element's weight in its group and the range of weights its children must reach.
const NodeCartConfigurationFields = {
  weight: z.number().int().min(0).max(1_000),
  rangeMin: z.number().int().min(0).max(1_000),
  rangeMax: z.number().int().min(0).max(1_000).nullable(),
};
export const NodeCartConfigurationCreate = creation(NodeCartConfigurationFields, []);
export const NodeCartConfigurationUpdate = update(NodeCartConfigurationFields);
export const NodeCartConfiguration = z.object({
  ...Row,
  weight: z.number().int(),
  rangeMin: z.number().int(),
  rangeMax: z.number().int().nullable(),
});
export type NodeCartConfiguration = z.infer<typeof NodeCartConfiguration>;

// Elements: the tree itself.
const NodeFields = {
  parentId: zId,
  order: z.number().int().min(0).max(1_000_000),
  configurationId: zId,
  cartConfigurationId: zId,
};
export const NodeCreate = creation(NodeFields, ["parentId", "configurationId", "cartConfigurationId"]);
export const NodeUpdate = update(NodeFields);
/** An element as stored: the root alone has no parent. */
export const NodeRow = z.object({
  ...Row,
  parentId: Id.nullable(),
  order: z.number().int(),
  configurationId: Id,
  cartConfigurationId: Id,
});
export type NodeRow = z.infer<typeof NodeRow>;
/** An element with its children, in their order. */
export const Node = NodeRow.extend({ childrenIds: z.array(Id) });
export type Node = z.infer<typeof Node>;
/** Where an element goes: under `parentId`, at `order` among its new siblings. */
export const NodeMove = z.strictObject({ parentId: zId, order: NodeFields.order });
export type NodeMove = z.output<typeof NodeMove>;

// Stocks: a quota shared by the articles whose configurations link to it.
const NodeLimitFields = {
  label: title,
  labelFr: french(200),
  maximum: z.number().int().min(0).max(10_000_000),
  order: z.number().int().min(0),
  conditionId: zId.nullable(),
  ...Linked,
};
export const NodeLimitCreate = creation(NodeLimitFields, ["maximum"]);
export const NodeLimitUpdate = update(NodeLimitFields);
export const NodeLimit = z.object({
  ...Row,
  label: z.string(),
  labelFr: z.string(),
  maximum: z.number().int(),
  order: z.number().int(),
  conditionId: Id.nullable(),
  used: z.number().int(),
  testingUsed: z.number().int(),
  ...LinkedRow,
  sold: z.number().int(),
  reserved: z.number().int(),
  remaining: z.number().int(),
});
export type NodeLimit = z.infer<typeof NodeLimit>;

// Price rules: set, add or take off an amount or a percentage, under a condition.
const NodePriceRuleFields = {
  label: title,
  labelFr: french(200),
  mode: z.enum(PRICE_RULE_MODES),
  value: z.number().int().min(0).max(100_000_000),
  order: z.number().int().min(0),
  shouldPropagate: flag,
  conditionId: zId.nullable(),
  ...Linked,
};
export const NodePriceRuleCreate = creation(NodePriceRuleFields, ["mode", "value"]);
export const NodePriceRuleUpdate = update(NodePriceRuleFields);
export const NodePriceRule = z.object({
  ...Row,
  label: z.string(),
  labelFr: z.string(),
  mode: z.enum(PRICE_RULE_MODES),
  value: z.number().int(),
  order: z.number().int(),
  shouldPropagate: z.boolean(),
  conditionId: Id.nullable(),
  ...LinkedRow,
});
export type NodePriceRule = z.infer<typeof NodePriceRule>;
/** `POST /node-price-rules/:id/move`: one place up or down in the list of rules that price the element `node_id`. */
export const PriceRuleMove = z.strictObject({ nodeId: zId, direction: z.enum(PRICE_RULE_DIRECTIONS) });
export type PriceRuleMove = z.output<typeof PriceRuleMove>;

// Promotion codes: what a buyer types in the ticket office; conditions test them.
const PromotionCodeFields = { name: title.min(1), value: z.string().trim().min(1).max(100) };
export const PromotionCodeCreate = creation(PromotionCodeFields, ["name", "value"]);
export const PromotionCodeUpdate = update(PromotionCodeFields);
export const PromotionCode = z.object({ ...Row, name: z.string(), value: z.string() });
export type PromotionCode = z.infer<typeof PromotionCode>;

// Statements: one test of a condition (the buyer's email, a promotion code, a date…).
const StatementFields = {
  conditionId: zId,
  leftHandOperand: z.enum(STATEMENT_OPERANDS),
  leftHandValue: z.string().max(200).nullable(),
  operator: z.enum(STATEMENT_OPERATORS),
  rightHandValue: z.string().max(2_000),
  scope: z.enum(STATEMENT_SCOPES),
  order: z.number().int().min(0),
};
export const StatementCreate = creation(StatementFields, ["conditionId", "leftHandOperand", "operator"]);
export const StatementUpdate = update(StatementFields);
export const Statement = z.object({
  ...Row,
  conditionId: Id,
  leftHandOperand: z.enum(STATEMENT_OPERANDS),
  leftHandValue: z.string().nullable(),
  operator: z.enum(STATEMENT_OPERATORS),
  rightHandValue: z.string(),
  scope: z.enum(STATEMENT_SCOPES),
  order: z.number().int(),
});
export type Statement = z.infer<typeof Statement>;

// Conditions: statements joined by and/or, which rules depend on.
const ConditionFields = { name: title, logicalOperator: z.enum(LOGICAL_OPERATORS), isImplicit: flag };
export const ConditionCreate = creation(ConditionFields, []);
export const ConditionUpdate = update(ConditionFields);
/** A condition with its statements, in their order. */
export const Condition = z.object({
  ...Row,
  name: z.string(),
  logicalOperator: z.enum(LOGICAL_OPERATORS),
  isImplicit: z.boolean(),
  statements: z.array(Statement),
});
export type Condition = z.infer<typeof Condition>;

// Tags: labels the ticket office shows on an element.
const NodeTagFields = { name: title.min(1), nameFr: french(200), nodeConfigurationId: zId.nullable() };
export const NodeTagCreate = creation(NodeTagFields, ["name"]);
export const NodeTagUpdate = update(NodeTagFields);
export const NodeTag = z.object({ ...Row, name: z.string(), nameFr: z.string(), nodeConfigurationId: Id.nullable() });
export type NodeTag = z.infer<typeof NodeTag>;

// Access rules: who may see the elements they apply to.
const NodeAccessFields = {
  label: title,
  labelFr: french(200),
  isAccessible: flag,
  conditionId: zId.nullable(),
  ...Linked,
};
export const NodeAccessCreate = creation(NodeAccessFields, []);
export const NodeAccessUpdate = update(NodeAccessFields);
export const NodeAccess = z.object({
  ...Row,
  label: z.string(),
  labelFr: z.string(),
  isAccessible: z.boolean(),
  conditionId: Id.nullable(),
  ...LinkedRow,
});
export type NodeAccess = z.infer<typeof NodeAccess>;

// Availabilities: when the elements they apply to are on sale.
const NodeAvailabilityFields = {
  name: title,
  nameFr: french(200),
  startsAt: zIsoDate.nullable(),
  endsAt: zIsoDate.nullable(),
  conditionId: zId.nullable(),
  ...Linked,
};
export const NodeAvailabilityCreate = creation(NodeAvailabilityFields, []);
export const NodeAvailabilityUpdate = update(NodeAvailabilityFields);
export const NodeAvailability = z.object({
  ...Row,
  name: z.string(),
  nameFr: z.string(),
  startsAt: IsoDate.nullable(),
  endsAt: IsoDate.nullable(),
  conditionId: Id.nullable(),
  ...LinkedRow,
});
export type NodeAvailability = z.infer<typeof NodeAvailability>;

// Extra-info groups: a form the buyer fills for the elements they apply to.
const NodeExtraInfoGroupFields = {
  name: title.min(1),
  nameFr: french(200),
  order: z.number().int().min(0),
  isInline: flag,
  helpText: z.string().max(2_000),
  helpTextFr: french(2_000),
  isRequired: flag,
  conditionId: zId.nullable(),
  ...Linked,
};
export const NodeExtraInfoGroupCreate = creation(NodeExtraInfoGroupFields, ["name"]);
export const NodeExtraInfoGroupUpdate = update(NodeExtraInfoGroupFields);
export const NodeExtraInfoGroup = z.object({
  ...Row,
  name: z.string(),
  nameFr: z.string(),
  order: z.number().int(),
  isInline: z.boolean(),
  helpText: z.string(),
  helpTextFr: z.string(),
  isRequired: z.boolean(),
  conditionId: Id.nullable(),
  ...LinkedRow,
});
export type NodeExtraInfoGroup = z.infer<typeof NodeExtraInfoGroup>;

// Extra infos: one field of such a form.
const NodeExtraInfoFields = {
  groupId: zId,
  text: z.string().max(2_000),
  textFr: french(2_000),
  name: title.min(1),
  nameFr: french(200),
  helpText: z.string().max(2_000),
  helpTextFr: french(2_000),
  type: z.enum(EXTRA_INFO_TYPES),
  isRequired: flag,
  order: z.number().int().min(0),
  choicesJson: z.array(z.string().trim().min(1).max(200)).max(200).nullable(),
  /** The French of `choicesJson`, in its order; an empty or missing one reads in English. */
  choicesFrJson: z.array(french(200)).max(200).nullable(),
  majorJson: z
    .object({ referenceDate: z.iso.date().optional(), age: z.number().int().min(0).max(150).optional() })
    .strict()
    .nullable(),
  range: z.string().max(100).nullable(),
};
export const NodeExtraInfoCreate = creation(NodeExtraInfoFields, ["groupId", "name", "type"]);
export const NodeExtraInfoUpdate = update(NodeExtraInfoFields);
export const NodeExtraInfo = z.object({
  ...Row,
  groupId: Id,
  text: z.string(),
  textFr: z.string(),
  name: z.string(),
  nameFr: z.string(),
  helpText: z.string(),
  helpTextFr: z.string(),
  type: z.enum(EXTRA_INFO_TYPES),
  isRequired: z.boolean(),
  order: z.number().int(),
  choicesJson: z.array(z.string()).nullable(),
  choicesFrJson: z.array(z.string()).nullable(),
  majorJson: z.object({ referenceDate: z.string().optional(), age: z.number().int().optional() }).nullable(),
  range: z.string().nullable(),
});
export type NodeExtraInfo = z.infer<typeof NodeExtraInfo>;

// Points of sale: where a buyer may pay on site.
const PointOfSaleFields = {
  title: title.min(1),
  titleFr: french(200),
  description: z.string().max(5_000),
  descriptionFr: french(5_000),
  location: z.string().max(1_000),
  locationFr: french(1_000),
};
export const PointOfSaleCreate = creation(PointOfSaleFields, ["title"]);
export const PointOfSaleUpdate = update(PointOfSaleFields);
export const PointOfSale = z.object({
  ...Row,
  title: z.string(),
  titleFr: z.string(),
  description: z.string(),
  descriptionFr: z.string(),
  location: z.string(),
  locationFr: z.string(),
});
export type PointOfSale = z.infer<typeof PointOfSale>;

/**
 * docs/specification.md §7: an event's registration module, whose root element the ticket office and the editor start
 * from.
 */
export const RegistrationModule = z.object({ ...Row, rootNodeId: Id.nullable() });
export type RegistrationModule = z.infer<typeof RegistrationModule>;

/** `POST /uploaded-images`: the stored image and the address it is served at. */
export const UploadedImage = z.object({
  id: Id,
  file: z.string(),
  uploadedAt: IsoDate,
  eventId: Id.nullable(),
  frontendLoginId: Id.nullable(),
  userId: Id.nullable(),
  privacyLevel: z.enum(["public", "private"]),
  url: z.string(),
});
export type UploadedImage = z.infer<typeof UploadedImage>;

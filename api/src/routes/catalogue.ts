// The element tree's resources (docs/design.md §3): one ra-data-simple-rest sub-app per resource over the engine of
// services/catalogue-resources.ts (the elements' own, which also moves and duplicates them, is in nodes.ts; the
// price rules', which also reorders them, in price-rules.ts).

import { toSnake } from "@ticketing/shared/case";
import {
  Condition,
  ConditionCreate,
  ConditionUpdate,
  Node,
  NodeAccess,
  NodeAccessCreate,
  NodeAccessUpdate,
  NodeAvailability,
  NodeAvailabilityCreate,
  NodeAvailabilityUpdate,
  NodeCartConfiguration,
  NodeCartConfigurationCreate,
  NodeCartConfigurationUpdate,
  NodeConfiguration,
  NodeConfigurationCreate,
  NodeConfigurationUpdate,
  NodeCreate,
  NodeExtraInfo,
  NodeExtraInfoCreate,
  NodeExtraInfoGroup,
  NodeExtraInfoGroupCreate,
  NodeExtraInfoGroupUpdate,
  NodeExtraInfoUpdate,
  NodeLimit,
  NodeLimitCreate,
  NodeLimitUpdate,
  NodePriceRule,
  NodePriceRuleCreate,
  NodePriceRuleUpdate,
  NodeTag,
  NodeTagCreate,
  NodeTagUpdate,
  NodeUpdate,
  PointOfSale,
  PointOfSaleCreate,
  PointOfSaleUpdate,
  PromotionCode,
  PromotionCodeCreate,
  PromotionCodeUpdate,
  Statement,
  StatementCreate,
  StatementUpdate,
} from "@ticketing/shared/schemas/catalogue";
import { Hono } from "hono";
import type { ZodType } from "zod";
import type { AppEnv } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import {
  createCatalogueRow,
  deleteCatalogueRow,
  getCatalogueRow,
  listCatalogueRows,
  updateCatalogueRow,
} from "../services/catalogue/catalogue-resources.ts";
import { CATALOGUE_LISTS, type CatalogueResource } from "../services/catalogue/resource-specs.ts";

interface Contract {
  /** What one row is, for the reference page: "a stock". */
  one: string;
  /** And many: "stocks". */
  many: string;
  create: ZodType<Record<string, unknown> & { eventId: number }>;
  update: ZodType<Record<string, unknown>>;
  answer: ZodType;
}

const CONTRACTS: Record<CatalogueResource, Contract> = {
  nodes: { one: "an element", many: "elements", create: NodeCreate, update: NodeUpdate, answer: Node },
  "node-configurations": {
    one: "an element configuration",
    many: "element configurations",
    create: NodeConfigurationCreate,
    update: NodeConfigurationUpdate,
    answer: NodeConfiguration,
  },
  "node-cart-configurations": {
    one: "a cart configuration (weight and range)",
    many: "cart configurations",
    create: NodeCartConfigurationCreate,
    update: NodeCartConfigurationUpdate,
    answer: NodeCartConfiguration,
  },
  "node-limits": {
    one: "a stock",
    many: "stocks",
    create: NodeLimitCreate,
    update: NodeLimitUpdate,
    answer: NodeLimit,
  },
  "node-price-rules": {
    one: "a price rule",
    many: "price rules",
    create: NodePriceRuleCreate,
    update: NodePriceRuleUpdate,
    answer: NodePriceRule,
  },
  "promotion-codes": {
    one: "a promotion code",
    many: "promotion codes",
    create: PromotionCodeCreate,
    update: PromotionCodeUpdate,
    answer: PromotionCode,
  },
  conditions: {
    one: "a condition",
    many: "conditions",
    create: ConditionCreate,
    update: ConditionUpdate,
    answer: Condition,
  },
  statements: {
    one: "a condition's statement",
    many: "statements",
    create: StatementCreate,
    update: StatementUpdate,
    answer: Statement,
  },
  "node-tags": { one: "a tag", many: "tags", create: NodeTagCreate, update: NodeTagUpdate, answer: NodeTag },
  "node-accesses": {
    one: "an access rule",
    many: "access rules",
    create: NodeAccessCreate,
    update: NodeAccessUpdate,
    answer: NodeAccess,
  },
  "node-availabilities": {
    one: "an availability",
    many: "availabilities",
    create: NodeAvailabilityCreate,
    update: NodeAvailabilityUpdate,
    answer: NodeAvailability,
  },
  "node-extra-info-groups": {
    one: "an extra-info group (a form)",
    many: "extra-info groups",
    create: NodeExtraInfoGroupCreate,
    update: NodeExtraInfoGroupUpdate,
    answer: NodeExtraInfoGroup,
  },
  "node-extra-infos": {
    one: "an extra info (a form's field)",
    many: "extra infos",
    create: NodeExtraInfoCreate,
    update: NodeExtraInfoUpdate,
    answer: NodeExtraInfo,
  },
  "points-of-sale": {
    one: "a point of sale",
    many: "points of sale",
    create: PointOfSaleCreate,
    update: PointOfSaleUpdate,
    answer: PointOfSale,
  },
};

export const LOCKED = "Writes are refused (409) unless the event is a draft or the caller a superuser.";

/** The five ra-data-simple-rest routes of one resource, on a sub-app of its own. */
export function resourceRoutes(resource: CatalogueResource) {
  const { one, many, create, update, answer: Row } = CONTRACTS[resource];
  const listOptions = CATALOGUE_LISTS[resource];
  const routes = new Hono<AppEnv>();
  routes.get(
    "/",
    route(
      {
        summary: `The ${many} of the events you can see`,
        description: `Id filters: ${listOptions.idFilters?.map((name) => `\`${toSnake(name)}\``).join(", ")}.`,
        auth: "user",
        scope: "read",
        list: listOptions,
        answer: Row,
      },
      async (c, { user, list }) =>
        answerList(c, resource, list, await listCatalogueRows(c.get("deps").database.db, user, resource, list)),
    ),
  );
  routes.get(
    "/:id",
    route({ summary: `One of the ${many}`, auth: "user", scope: "read", answer: Row }, async (c, { user }) =>
      answer(c, await getCatalogueRow(c.get("deps").database.db, user, resource, idParam(c))),
    ),
  );
  routes.post(
    "/",
    route(
      {
        summary: `Add ${one} to an event`,
        description: LOCKED,
        auth: "user",
        scope: "manage",
        body: create,
        answer: Row,
        status: 201,
      },
      async (c, { user, body }) => {
        const { database, config } = c.get("deps");
        return answer(c, await createCatalogueRow(database, user, resource, body, config.supportEmail), 201);
      },
    ),
  );
  routes.put(
    "/:id",
    route(
      { summary: `Change ${one}`, description: LOCKED, auth: "user", scope: "manage", body: update, answer: Row },
      async (c, { user, body }) => {
        const { database, config } = c.get("deps");
        return answer(c, await updateCatalogueRow(database, user, resource, idParam(c), body, config.supportEmail));
      },
    ),
  );
  routes.delete(
    "/:id",
    route(
      {
        summary: `Delete ${one}; the answer is the row as it was`,
        description: LOCKED,
        auth: "user",
        scope: "manage",
        answer: Row,
      },
      async (c, { user }) => {
        const { database, config } = c.get("deps");
        return answer(c, await deleteCatalogueRow(database, user, resource, idParam(c), config.supportEmail));
      },
    ),
  );
  return routes;
}

/** Resources whose sub-app adds routes of its own, in a file of its own. */
const EXTENDED: CatalogueResource[] = ["nodes", "node-price-rules"];

/** The element tree's sub-apps but those of EXTENDED (nodes.ts, price-rules.ts), by the prefix each is mounted at. */
export const catalogueRoutes = (Object.keys(CONTRACTS) as CatalogueResource[])
  .filter((resource) => !EXTENDED.includes(resource))
  .map((resource): [string, Hono<AppEnv>] => [`/${resource}`, resourceRoutes(resource)]);

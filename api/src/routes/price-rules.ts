// The price rules (docs/decisions/0032): the resource's five routes, and the editor's move up or down.

import { NodePriceRule, PriceRuleMove } from "@ticketing/shared/schemas/catalogue";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { movePriceRule } from "../services/catalogue/price-rules.ts";
import { LOCKED, resourceRoutes } from "./catalogue.ts";

export const priceRuleRoutes = resourceRoutes("node-price-rules");

priceRuleRoutes.post(
  "/:id/move",
  route(
    {
      summary: "Move a price rule one place up or down in the order the rules pricing an element are applied",
      description:
        "The rule goes right before (`up`) or after (`down`) its neighbour among the rules pricing `node_id` " +
        "(its own and those propagated from above); every other rule keeps its place, and the event's rules " +
        `keep a dense \`order\`. 409 when it is already first or last there. ${LOCKED}`,
      auth: "user",
      scope: "manage",
      body: PriceRuleMove,
      answer: NodePriceRule,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await movePriceRule(database, user, idParam(c), body, config.supportEmail));
    },
  ),
);

// The elements of the tree (issue 4): the resource's five routes, and the editor's move and duplicate.

import { NodeMove, NodeRow } from "@ticketing/shared/schemas/catalogue";
import { Empty } from "@ticketing/shared/schemas/common";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { duplicateNode, moveNode } from "../services/catalogue/tree-editing.ts";
import { LOCKED, resourceRoutes } from "./catalogue.ts";

export const nodeRoutes = resourceRoutes("nodes");

nodeRoutes.post(
  "/:id/move",
  route(
    {
      summary: "Move an element (with its subtree) under another, at a place among its children",
      description: `Both parents keep a dense order. ${LOCKED}`,
      auth: "user",
      scope: "manage",
      body: NodeMove,
      answer: NodeRow,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await moveNode(database, user, idParam(c), body, config.supportEmail));
    },
  ),
);

nodeRoutes.post(
  "/:id/duplicate",
  route(
    {
      summary: "Copy an element and its subtree right after it, linked to the same rules and stocks",
      description: LOCKED,
      auth: "user",
      scope: "manage",
      body: Empty,
      answer: NodeRow,
      status: 201,
    },
    async (c, { user }) => {
      const { database, config } = c.get("deps");
      return answer(c, await duplicateNode(database, user, idParam(c), config.supportEmail), 201);
    },
  ),
);

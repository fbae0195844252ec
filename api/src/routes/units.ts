// Units (issue 3): members see, owners manage, superusers do everything (services/units.ts).
import { Unit, UnitCreate, UnitUpdate } from "@ticketing/shared/schemas/units";
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import { createUnit, getUnit, listUnits, UNIT_LIST, updateUnit } from "../services/units.ts";

export const unitRoutes = new Hono<AppEnv>();

unitRoutes.get(
  "/",
  route(
    { summary: "The units you belong to (every unit for a superuser)", auth: "user", list: UNIT_LIST, answer: Unit },
    async (c, { user, list }) => answerList(c, "units", list, await listUnits(c.get("deps").database, user, list)),
  ),
);

unitRoutes.post(
  "/",
  route(
    { summary: "Create a unit, with you as its owner", auth: "user", body: UnitCreate, answer: Unit, status: 201 },
    async (c, { user, body }) => answer(c, await createUnit(c.get("deps").database, user, body), 201),
  ),
);

unitRoutes.get(
  "/:id",
  route({ summary: "A unit you belong to, with your role in it", auth: "user", answer: Unit }, async (c, { user }) =>
    answer(c, await getUnit(c.get("deps").database, user, idParam(c))),
  ),
);

unitRoutes.put(
  "/:id",
  route(
    {
      summary: "Change a unit you own (the agent fees: superusers only)",
      auth: "user",
      body: UnitUpdate,
      answer: Unit,
    },
    async (c, { user, body }) => answer(c, await updateUnit(c.get("deps").database, user, idParam(c), body)),
  ),
);

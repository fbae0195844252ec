// Units (issue 3): members see, owners manage, superusers do everything (services/units.ts).
import { Unit, UnitCreate, UnitStripeSettings, UnitUpdate } from "@ticketing/shared/schemas/units";
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import {
  createUnit,
  getUnit,
  listUnits,
  removeUnitStripe,
  setUnitStripe,
  UNIT_LIST,
  updateUnit,
} from "../services/accounts/units.ts";

export const unitRoutes = new Hono<AppEnv>();

unitRoutes.get(
  "/",
  route(
    { summary: "The units you belong to (every unit for a superuser)", auth: "user", list: UNIT_LIST, answer: Unit },
    async (c, { user, list }) => {
      const { database, config } = c.get("deps");
      return answerList(c, "units", list, await listUnits(database, user, list, config.publicUrl));
    },
  ),
);

unitRoutes.post(
  "/",
  route(
    { summary: "Create a unit, with you as its owner", auth: "user", body: UnitCreate, answer: Unit, status: 201 },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await createUnit(database, user, body, config.publicUrl), 201);
    },
  ),
);

unitRoutes.get(
  "/:id",
  route({ summary: "A unit you belong to, with your role in it", auth: "user", answer: Unit }, async (c, { user }) => {
    const { database, config } = c.get("deps");
    return answer(c, await getUnit(database, user, idParam(c), config.publicUrl));
  }),
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
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await updateUnit(database, user, idParam(c), body, config.publicUrl));
    },
  ),
);

unitRoutes.put(
  "/:id/stripe",
  route(
    {
      summary: "Set the Stripe account of a unit you own",
      description:
        "The secret key and the webhook signing secret from Stripe's dashboard, stored encrypted and never answered: " +
        "the unit answers `is_stripe_configured` and the `stripe_webhook_url` to give Stripe.",
      auth: "user",
      body: UnitStripeSettings,
      answer: Unit,
    },
    async (c, { user, body }) => {
      const { database, config } = c.get("deps");
      return answer(c, await setUnitStripe(database, config, user, idParam(c), body));
    },
  ),
);

unitRoutes.delete(
  "/:id/stripe",
  route(
    {
      summary: "Remove the Stripe account of a unit you own",
      description: "Its events that pay by Stripe take no online payment until it is set again.",
      auth: "user",
      answer: Unit,
    },
    async (c, { user }) => {
      const { database, config } = c.get("deps");
      return answer(c, await removeUnitStripe(database, user, idParam(c), config.publicUrl));
    },
  ),
);

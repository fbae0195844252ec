// docs/specification.md §7 "registration modules list": an event's module, whose root element the editor and the ticket
// office start from.
import { RegistrationModule } from "@ticketing/shared/schemas/catalogue";
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import { listRegistrationModules, REGISTRATION_MODULE_LIST } from "../services/catalogue/catalogue-resources.ts";

export const registrationModuleRoutes = new Hono<AppEnv>();

registrationModuleRoutes.get(
  "/",
  route(
    {
      summary: "An event's registration module, whose root element the editor and the ticket office start from",
      description: "The `event` (or `event_id`) filter is required. The list is not paged: an event has one module.",
      auth: "user",
      scope: "read",
      list: REGISTRATION_MODULE_LIST,
      answer: RegistrationModule,
    },
    async (c, { user, list }) => {
      const page = await listRegistrationModules(c.get("deps").database.db, user, list);
      // Not paged: its one page starts at 0 whatever range is asked.
      return answerList(c, "registration-modules", { ...list, offset: 0 }, page);
    },
  ),
);

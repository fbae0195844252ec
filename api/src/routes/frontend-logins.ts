// `/frontend-logins` (docs/specification.md §7): the caller's own ticket-office logins.
import { FrontendLogin, FrontendLoginQuery } from "@ticketing/shared/schemas/auth";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { answer } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { listOwnFrontendLogins } from "../services/buyers/logins.ts";

export const frontendLoginRoutes = new Hono<AppEnv>();

frontendLoginRoutes.get(
  "/",
  route(
    {
      summary: "Your ticket-office logins (`?id=1,2`: those of them only)",
      auth: "buyer",
      query: FrontendLoginQuery,
      answer: z.array(FrontendLogin),
    },
    async (c, { logins, query }) => answer(c, await listOwnFrontendLogins(c.get("deps").database.db, logins, query.id)),
  ),
);

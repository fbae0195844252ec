import { User, UserUpdate } from "@ticketing/shared/schemas/users";
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { getVisibleUser, presentUser, updateOwnName } from "../services/accounts/users.ts";

export const userRoutes = new Hono<AppEnv>();

userRoutes.get(
  "/me",
  route({ summary: "The signed-in user", auth: "user", answer: User }, (c, { user }) => answer(c, presentUser(user))),
);

userRoutes.put(
  "/me",
  route({ summary: "Change your own name", auth: "user", body: UserUpdate, answer: User }, async (c, { user, body }) =>
    answer(c, await updateOwnName(c.get("deps").database, user, body)),
  ),
);

userRoutes.get(
  "/:id",
  route(
    { summary: "A user who shares a unit with you (a superuser sees everyone)", auth: "user", answer: User },
    async (c, { user }) => answer(c, await getVisibleUser(c.get("deps").database, user, idParam(c))),
  ),
);

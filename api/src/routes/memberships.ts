// Memberships (issue 3): owners add, change and remove members; a member may leave (services/memberships.ts).
import { Membership, MembershipCreate, MembershipUpdate } from "@ticketing/shared/schemas/memberships";
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import {
  createMembership,
  deleteMembership,
  getMembership,
  listMemberships,
  MEMBERSHIP_LIST,
  updateMembership,
} from "../services/accounts/memberships.ts";

export const membershipRoutes = new Hono<AppEnv>();

membershipRoutes.get(
  "/",
  route(
    {
      summary: "The memberships of the units you belong to (every unit's for a superuser)",
      auth: "user",
      list: MEMBERSHIP_LIST,
      answer: Membership,
    },
    async (c, { user, list }) =>
      answerList(c, "memberships", list, await listMemberships(c.get("deps").database, user, list)),
  ),
);

membershipRoutes.post(
  "/",
  route(
    {
      summary: "Add the person with an account under an email to a unit you own",
      auth: "user",
      body: MembershipCreate,
      answer: Membership,
      status: 201,
    },
    async (c, { user, body }) => answer(c, await createMembership(c.get("deps").database, user, body), 201),
  ),
);

membershipRoutes.get(
  "/:id",
  route({ summary: "A membership of a unit you belong to", auth: "user", answer: Membership }, async (c, { user }) =>
    answer(c, await getMembership(c.get("deps").database, user, idParam(c))),
  ),
);

membershipRoutes.put(
  "/:id",
  route(
    {
      summary: "Change a member's role in a unit you own (a unit keeps at least one owner)",
      auth: "user",
      body: MembershipUpdate,
      answer: Membership,
    },
    async (c, { user, body }) => answer(c, await updateMembership(c.get("deps").database, user, idParam(c), body)),
  ),
);

membershipRoutes.delete(
  "/:id",
  route(
    {
      summary: "Remove a member from a unit you own, or leave one (a unit keeps at least one owner)",
      auth: "user",
      answer: Membership,
    },
    async (c, { user }) => answer(c, await deleteMembership(c.get("deps").database, user, idParam(c))),
  ),
);

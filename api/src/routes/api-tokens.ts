// A unit's API tokens (issue 35, docs/decisions/0044): its owners list, create and revoke them; no API token may
// (no `scope`: for signed-in staff only).
import { ApiToken, ApiTokenCreate, CreatedApiToken } from "@ticketing/shared/schemas/api-tokens";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { answer, idParam } from "../lib/http.ts";
import { answerList } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import { API_TOKEN_LIST, createApiToken, listApiTokens, revokeApiToken } from "../services/accounts/api-tokens.ts";

export const apiTokenRoutes = new Hono<AppEnv>();

apiTokenRoutes.get(
  "/",
  route(
    {
      summary: "The API tokens of a unit you own, revoked ones included (never their text: their prefix)",
      auth: "user",
      list: API_TOKEN_LIST,
      answer: ApiToken,
    },
    async (c, { user, list }) =>
      answerList(c, "api-tokens", list, await listApiTokens(c.get("deps").database, user, idParam(c), list)),
  ),
);

apiTokenRoutes.post(
  "/",
  route(
    {
      summary: "Create an API token for a unit you own",
      description:
        "The answer's `token` is the only time the token is shown: only its SHA-256 is kept. Send it as " +
        "`Authorization: Bearer tkt_…`; it acts as a member of the unit, on the routes its scopes allow.",
      auth: "user",
      body: ApiTokenCreate,
      answer: CreatedApiToken,
      status: 201,
    },
    async (c, { user, body }) =>
      answer(c, await createApiToken(c.get("deps").database, user, idParam(c), body, now(c)), 201),
  ),
);

apiTokenRoutes.delete(
  "/:tokenId",
  route(
    {
      summary: "Revoke an API token of a unit you own (it is kept in the list, revoked)",
      auth: "user",
      answer: ApiToken,
    },
    async (c, { user }) =>
      answer(c, await revokeApiToken(c.get("deps").database, user, idParam(c), idParam(c, "tokenId"), now(c))),
  ),
);

// A unit's API tokens (issue 35, docs/decisions/0044): named, with scopes; the token itself is answered once, when it
// is created, and never again (a list shows its prefix).
import { z } from "zod";
import { API_TOKEN_SCOPES } from "../api-scopes.ts";
import { Id, IsoDate } from "./common.ts";

export const ApiTokenScope = z.enum(API_TOKEN_SCOPES);

/** What a token is created with: a name to recognise it and at least one scope (each once). */
export const ApiTokenCreate = z.strictObject({
  name: z.string().trim().min(1, { error: "errors.api_token_name_required" }).max(100),
  scopes: z
    .array(ApiTokenScope)
    .min(1, { error: "errors.api_token_scopes_required" })
    .max(API_TOKEN_SCOPES.length * 2)
    .transform((scopes) => API_TOKEN_SCOPES.filter((scope) => scopes.includes(scope))),
});
export type ApiTokenCreate = z.output<typeof ApiTokenCreate>;

/** A token as listed: never its text, only its first characters. */
export const ApiToken = z.object({
  id: Id,
  unitId: Id,
  name: z.string(),
  /** `tkt_` and the first characters of the token, to recognise it. */
  prefix: z.string(),
  scopes: z.array(ApiTokenScope),
  createdById: Id,
  createdAt: IsoDate,
  lastUsedAt: IsoDate.nullable(),
  revokedAt: IsoDate.nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** The creation's answer: the token, the only time it is shown. */
export const CreatedApiToken = ApiToken.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

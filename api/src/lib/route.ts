// A route's contract beside its handler (docs/decisions/0009): `route(spec, handler)` checks who calls, reads
// the body and the query with the spec's shared schemas, and leaves the spec on the handler, where the OpenAPI
// document (openapi.ts) finds it by walking `app.routes`. A route without a spec fails the contract test.
import type { ApiTokenScope } from "@ticketing/shared/api-scopes";
import { camelizeKeys } from "@ticketing/shared/case";
import { type ZodType, z } from "zod";
import type { Ctx } from "../context.ts";
import { requireFrontendLogins, requireStaff, type User } from "../services/accounts/access.ts";
import { readBody, readQuery } from "./http.ts";
import { type ListOptions, type ListQuery, parseListQuery } from "./list-query.ts";

export interface RouteSpec {
  /** One line for the reference page. */
  summary: string;
  description?: string;
  /**
   * Who may call: `user` a signed-in back-office user (401 first, before the body is read), `buyer` a ticket-office
   * login, `optional` either or nobody (the route decides), `none` anybody.
   */
  auth?: "none" | "user" | "buyer" | "optional";
  /**
   * The scope an API token needs to call this route (shared/src/api-scopes.ts); a route without one answers 403 to
   * an API token. Only for `auth: "user"` routes.
   */
  scope?: ApiTokenScope;
  /** The body, camelCase; JSON or a form. */
  body?: ZodType;
  /** The query's plain keys, camelCase. */
  query?: ZodType;
  /** A ra-data-simple-rest list (`sort`, `range`, `filter`, Content-Range): the answer is an array of `answer`. */
  list?: ListOptions;
  /** The answer's body, camelCase (the wire's keys are its snake_case form). */
  answer?: ZodType;
  /** The status of a success: 200 unless told. */
  status?: 200 | 201 | 204 | 302 | 303;
  /** The media type of an answer that is not JSON: a PDF, a page, a key; several when the request chooses. */
  produces?: string | readonly string[];
}

type Parsed<T> = T extends ZodType ? z.output<T> : undefined;

export interface RouteInput<S extends RouteSpec> {
  /** The caller, for `auth: "user"`. */
  user: S["auth"] extends "user" ? User : undefined;
  /** The caller's ticket-office logins, for `auth: "buyer"`. */
  logins: S["auth"] extends "buyer" ? number[] : undefined;
  body: Parsed<S["body"]>;
  query: Parsed<S["query"]>;
  list: S["list"] extends ListOptions ? ListQuery : undefined;
}

export const ROUTE_SPEC = Symbol("route spec");

type Described = ((c: Ctx) => Promise<Response>) & { [ROUTE_SPEC]: RouteSpec };

/**
 * Answers are checked against their schema under test (vitest sets VITEST): a service that drifts from the
 * contract the UIs compile against fails the API's own tests instead of a screen.
 */
const CHECK_ANSWERS = process.env.VITEST !== undefined;

export function route<const S extends RouteSpec>(
  spec: S,
  handler: (c: Ctx, input: RouteInput<S>) => Response | Promise<Response>,
): Described {
  const run = async (c: Ctx) => {
    const auth = c.get("auth");
    // An API token reaches a back-office route only through its scope (docs/decisions/0044); elsewhere it is no one.
    const user = spec.auth === "user" ? await requireStaff(c.get("deps").database.db, auth, spec.scope) : undefined;
    const logins = spec.auth === "buyer" ? requireFrontendLogins(auth) : undefined;
    const body = spec.body ? await readBody(c, spec.body) : undefined;
    const query = spec.query ? readQuery(c, spec.query) : undefined;
    const list = spec.list ? parseListQuery(c, spec.list) : undefined;
    const response = await handler(c, { user, logins, body, query, list } as RouteInput<S>);
    if (CHECK_ANSWERS) await checkAnswer(c, spec, response);
    return response;
  };
  return Object.assign(run, { [ROUTE_SPEC]: spec });
}

/** The spec a handler of `app.routes` carries (a sub-app with an error handler of its own wraps it). */
export function specOf(handler: unknown): RouteSpec | undefined {
  if (typeof handler !== "function") return undefined;
  const own = (handler as Partial<Described>)[ROUTE_SPEC];
  if (own) return own;
  const inner = (handler as { __COMPOSED_HANDLER?: unknown }).__COMPOSED_HANDLER;
  return inner && inner !== handler ? specOf(inner) : undefined;
}

async function checkAnswer(c: Ctx, spec: RouteSpec, response: Response) {
  const type = response.headers.get("content-type") ?? "";
  if (!spec.answer || response.status >= 300 || !type.includes("application/json")) return;
  const schema = spec.list ? z.array(spec.answer) : spec.answer;
  const result = schema.safeParse(camelizeKeys(await response.clone().json()));
  if (!result.success)
    throw new Error(
      `${c.req.method} ${c.req.routePath} answered outside its contract:\n${z.prettifyError(result.error)}`,
    );
}

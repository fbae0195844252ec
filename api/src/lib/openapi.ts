// The published contract (docs/decisions/0009): an OpenAPI 3.1 document built from the routes the app really
// has (`app.routes`) and the shared schemas their specs name, converted by zod's own JSON Schema generator. The
// schemas are camelCase, as the code reads them; the document shows the wire, their snake_case form.
import { toSnake } from "@ticketing/shared/case";
import { ErrorAnswer } from "@ticketing/shared/schemas/common";
import type { Hono } from "hono";
import { type ZodType, z } from "zod";
import { type RouteSpec, specOf } from "./route.ts";

type JsonSchema = { [key: string]: unknown };
type Operation = { [key: string]: unknown };

/** Named schemas of the document: what a recursive schema (a tree node's children) refers to. */
type Components = Record<string, JsonSchema>;

/**
 * A schema's JSON Schema (2020-12, OpenAPI 3.1's dialect) with the wire's snake_case property names. The
 * definitions zod puts in `$defs` (a recursive schema refers to itself) move to the document's components:
 * an OpenAPI document resolves `#/…` against itself, not against the schema.
 */
export function wireSchema(schema: ZodType, io: "input" | "output", components: Components): JsonSchema {
  const {
    $schema: _dialect,
    $defs,
    ...json
  } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    reused: "inline",
  }) as JsonSchema;
  const names = new Map<string, string>();
  const definitions = Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {});
  for (const [name, definition] of definitions) {
    const text = JSON.stringify(definition);
    const same = Object.entries(components).find(([, known]) => JSON.stringify(known) === text);
    let unique = same?.[0] ?? (name.startsWith("__") ? `Schema${Object.keys(components).length + 1}` : name);
    while (!same && unique in components) unique = `${unique}_`;
    names.set(name, unique);
    if (!same) components[unique] = {};
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const target = key === "$ref" && typeof item === "string" ? /^#\/\$defs\/(.+)$/.exec(item)?.[1] : undefined;
        return [key, target ? `#/components/schemas/${names.get(target) ?? target}` : rewrite(item)];
      }),
    );
  };
  for (const [name, definition] of definitions) {
    const unique = names.get(name) as string;
    if (Object.keys(components[unique] ?? {}).length === 0)
      components[unique] = snakeProperties(rewrite(definition)) as JsonSchema;
  }
  return snakeProperties(rewrite(json)) as JsonSchema;
}

function snakeProperties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeProperties);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key === "properties" && typeof item === "object" && item !== null)
        return [key, Object.fromEntries(Object.entries(item).map(([name, s]) => [toSnake(name), snakeProperties(s)]))];
      if (key === "required" && Array.isArray(item)) return [key, item.map((name) => toSnake(String(name)))];
      return [key, snakeProperties(item)];
    }),
  );
}

const ERROR_RESPONSES: Record<string, string> = {
  "400": "The request is not valid: messages, and the fields they are about",
  "401": "No valid token",
  "403": "Signed in but not allowed",
  "404": "Unknown, or not visible to the caller",
  "409": "The current state does not allow it (sold out, locked, already done)",
  "429": "Too many attempts; Retry-After says when to try again",
};

const LIST_PARAMETERS = [
  ["sort", 'The order, `["field","ASC"]` or `["field","DESC"]`'],
  ["range", "The rows, first and last index from 0: `[0,24]`"],
  ["filter", 'Filters as a JSON object: `{"event_id":3}`, `{"id":[1,2]}` for many'],
].map(([name, description]) => ({ name, in: "query", required: false, description, schema: { type: "string" } }));

function operation(spec: RouteSpec, method: string, path: string, tag: string, components: Components): Operation {
  const parameters: Operation[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: name === "id" || name?.endsWith("Id") ? { type: "integer", minimum: 1 } : { type: "string" },
  }));
  if (spec.query) {
    const query = wireSchema(spec.query, "input", components);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties as Record<string, JsonSchema>) ?? {}))
      parameters.push({ name, in: "query", required: required.has(name), schema });
  }
  if (spec.list) parameters.push(...LIST_PARAMETERS);
  const status = String(spec.status ?? 200);
  const success: Operation = { description: spec.summary };
  if (spec.answer) {
    const schema = wireSchema(spec.answer, "output", components);
    success.content = { "application/json": { schema: spec.list ? { type: "array", items: schema } : schema } };
  } else if (spec.produces)
    success.content = Object.fromEntries([spec.produces].flat().map((type) => [type, { schema: {} }]));
  if (spec.list)
    success.headers = {
      "Content-Range": { description: "`things 0-24/319`: the rows sent and the total", schema: { type: "string" } },
    };
  const errors = Object.fromEntries(
    Object.entries(ERROR_RESPONSES)
      .filter(([code]) => (code !== "401" && code !== "403") || (spec.auth !== undefined && spec.auth !== "none"))
      .map(([code, description]) => [
        code,
        { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } } },
      ]),
  );
  const body = spec.body ? wireSchema(spec.body, "input", components) : undefined;
  // A unit's API token may call a back-office route whose spec names its scope (docs/decisions/0044).
  const tokenNote =
    spec.auth === "user"
      ? spec.scope
        ? `API tokens: with the \`${spec.scope}\` scope.`
        : "API tokens: refused (403), signed-in staff only."
      : "";
  const description = [spec.description, tokenNote].filter(Boolean).join("\n\n");
  return {
    tags: [tag],
    summary: spec.summary,
    ...(description ? { description } : {}),
    operationId: `${method} ${path}`,
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: body }, "application/x-www-form-urlencoded": { schema: body } },
          },
        }
      : {}),
    responses: { [status]: success, ...errors },
    ...(spec.auth === "user" && spec.scope ? { security: [{ bearer: [] }, { apiToken: [spec.scope] }] } : {}),
    ...((spec.auth === "user" && !spec.scope) || spec.auth === "buyer" ? { security: [{ bearer: [] }] } : {}),
    ...(spec.auth === "optional" ? { security: [{ bearer: [] }, {}] } : {}),
  };
}

/** `/api/v1/events/:id/tree` → `/events/{id}/tree` under the server `/api/v1`. */
export const openApiPath = (base: string, path: string) =>
  path.slice(base.length).replace(/:(\w+)(\{[^}]*\})?/g, "{$1}") || "/";

export function openApiDocument(app: Hono, base: string, info: { title: string; version: string }) {
  const paths: Record<string, Record<string, Operation>> = {};
  const components: Components = {};
  for (const { method, path, handler } of app.routes) {
    const spec = specOf(handler);
    if (!spec || method === "ALL") continue;
    const wirePath = openApiPath(base, path);
    const tag = wirePath.split("/")[1] ?? "api";
    const operations = paths[wirePath] ?? {};
    operations[method.toLowerCase()] = operation(spec, method, wirePath, tag, components);
    paths[wirePath] = operations;
  }
  return {
    openapi: "3.1.0",
    info: {
      ...info,
      description:
        "Keys are snake_case in both directions; messages follow Accept-Language (en, fr). Conventions and flows: docs/api.md.",
    },
    servers: [{ url: base }],
    paths,
    components: {
      schemas: { ...components, Errors: wireSchema(ErrorAnswer, "output", components) },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        apiToken: {
          type: "http",
          scheme: "bearer",
          description: "A unit's API token (`tkt_…`): the scope each operation needs is listed in its requirement.",
        },
      },
    },
  };
}

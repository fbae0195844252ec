// Fuzzes EVERY route of the API (from the router's own list, so a new route is fuzzed without being named here)
// with generated bad input: bodies, queries and path parameters of the wrong types, nested thousands deep, huge,
// named after built-in properties, in odd unicode, as forms or broken JSON. Each case is sent without a token
// and as a superuser, a unit owner and a ticket-office buyer, so the input reaches validation and the services
// behind it. docs/design.md §3: bad input is a 4xx with `{"errors": [...]}`, never a 500.
import { run, schema } from "@ticketing/db";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_IN_NAMES, NUMBER_TEXTS, ODD_TEXTS, wellFormed } from "./fuzz-inputs.ts";
import { createUser } from "./services/accounts/sessions.ts";
import {
  createBuyer,
  createOnSaleEvent,
  createTestContext,
  loginAs,
  nextBuyerAddress,
  type TestContext,
  writeUnitStripeSecrets,
} from "./test-support.ts";

// CI runs the default seed and size; a longer local hunt: FUZZ_SEED=7 FUZZ_REQUESTS=200000 npx vitest run api/src/fuzz.test.ts
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/** Spread over the routes (at least 20,000 in CI); the learning requests come on top. */
const TARGET_REQUESTS = Math.max(20_000, Number(process.env.FUZZ_REQUESTS ?? 22_000));
const PASSWORD = "correct-horse-battery-1!";

type Actor = "anonymous" | "superuser" | "owner" | "buyer";
const ACTORS: Actor[] = ["anonymous", "superuser", "owner", "buyer"];

/**
 * The only answers that are not JSON, and only when they succeed: an error is always JSON. Everything else
 * answers JSON whatever its status.
 */
const NON_JSON_ROUTES: Record<string, string> = {
  "GET /frontend/baskets/:id/tickets": "application/pdf",
  "GET /baskets/:id/tickets": "application/pdf",
  "GET /frontend/baskets/:id/tickets/:itemId": "application/pdf",
  "GET /invoices/:id/pdf": "application/pdf",
  "GET /exports/:list": "text/csv or an xlsx workbook",
  "GET /frontend/invoices/:id/pdf": "application/pdf",
  "POST /events/:id/communication/pdf-ticket-preview": "application/pdf",
  "GET /frontend/orders/:token/tickets": "application/pdf",
  "GET /frontend/orders/:token/tickets/:itemId": "application/pdf",
  "GET /frontend/orders/:token/invoices/:id/pdf": "application/pdf",
  "GET /payments/demo/pay/:id": "text/html",
  "POST /payments/demo/pay/:id": "a 303 redirect back to the ticket office",
  "GET /tickets/public-key": "application/x-pem-file",
  "GET /uploaded-images/:id/file": "the image",
  "POST /auth/logout": "204, no body",
  "GET /docs": "text/html",
  "GET /docs/scalar.js": "text/javascript",
};

// ---------------------------------------------------------------------------------------------------------------
// Inputs

const ODD_NUMBERS = [0, -0, -1, 1.5, -2.5, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1e-7];
/** Words the API's schemas use (enums, payment modules): odd values that get further than random text. */
const DOMAIN_WORDS = [
  "demo",
  "stripe",
  "checkout.session.completed",
  "stripe",
  "online",
  "point_of_sale",
  "success",
  "cancel",
  "error",
  "article",
  "option",
  "single_choice",
  "set",
  "plus_percent",
  "up",
  "down",
  "owner",
  "member",
  "draft",
  "public",
  "closed",
  "validated",
  "new",
  "and",
  "or",
  "=",
  "is in",
  "promotion_code",
  "user_email",
  "text",
  "anonymous",
  "trusted_email",
  "csv",
  "xlsx",
];
/** Body and query keys the API reads (snake_case, as on the wire), plus whatever a route says it requires. */
const FIELD_NAMES = [
  "id",
  "event_id",
  "event",
  "unit_id",
  "basket_id",
  "basket",
  "node_id",
  "option_node_ids",
  "parent_id",
  "configuration_id",
  "cart_configuration_id",
  "node_configuration_ids",
  "condition_id",
  "group_id",
  "extra_info_id",
  "answers",
  "value",
  "name",
  "name_fr",
  "title",
  "title_fr",
  "label",
  "label_fr",
  "email",
  "password",
  "password_confirmation",
  "current_password",
  "first_name",
  "last_name",
  "refresh_token",
  "active_module_id",
  "is_testing",
  "testing",
  "token",
  "login_pk",
  "hash",
  "user_id_b64",
  "token_b64",
  "next_url",
  "payment_method",
  "terms_accepted",
  "role",
  "status",
  "description",
  "description_fr",
  "price",
  "stock",
  "order",
  "direction",
  "maximum",
  "mode",
  "weight",
  "range_min",
  "range_max",
  "start_date",
  "end_date",
  "starts_at",
  "ends_at",
  "frontend_path",
  "frontend_title",
  "frontend_title_fr",
  "welcome_text_fr",
  "location_text_fr",
  "location_fr",
  "help_text_fr",
  "text_fr",
  "category",
  "type",
  "intent_id",
  "psp_id",
  "outcome",
  "sig",
  "iban",
  "agent_fees",
  "address",
  "postal_code",
  "city",
  "country",
  "choices_json",
  "choices_fr_json",
  "major_json",
  "access_methods",
  "reservation_minutes",
  "path",
  "code",
  "codes",
  "q",
  "preview",
  "format",
  "secret_key",
  "webhook_secret",
  "online_payment_module",
  "opens_at",
  "rate_per_minute",
  "admission_minutes",
];

/** A JSON text nested up to `maxDepth` deep (around the API's limit of 64 or far past it), maybe in a body. */
const deepJson = (maxDepth: number) =>
  fc
    .record({
      depth: fc.oneof(fc.integer({ min: 60, max: 70 }), fc.integer({ min: 71, max: maxDepth })),
      shape: fc.constantFrom("arrays", "objects", "mixed"),
      key: fc.constantFrom(...FIELD_NAMES),
      wrapped: fc.boolean(),
    })
    .map(({ depth, shape, key, wrapped }) => {
      const [open, close, levels] =
        shape === "arrays"
          ? ["[", "]", depth]
          : shape === "objects"
            ? [`{"${key}":`, "}", depth]
            : [`[{"${key}":`, "}]", Math.ceil(depth / 2)];
      const inner = `${open.repeat(levels)}1${close.repeat(levels)}`;
      return wrapped ? `{"${key}":${inner}}` : inner;
    });

/** Long texts: in a body up to 100,000 characters (the body limit is larger), in a URL up to 4,000 (Node's own
 * limit on a request's head, 16 KB, refuses longer ones before the API sees them). */
const longText = (max: number) =>
  fc
    .record({ length: fc.integer({ min: 500, max }), unit: fc.constantFrom("a", "é", "😀", "\u0000", "9") })
    .map(({ length, unit }) => unit.repeat(length));

const shortOddText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_TEXTS, ...NUMBER_TEXTS, ...BUILT_IN_NAMES, ...DOMAIN_WORDS) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const oddText = fc.oneof({ weight: 12, arbitrary: shortOddText }, { weight: 1, arbitrary: longText(100_000) });
const urlText = fc.oneof({ weight: 12, arbitrary: shortOddText }, { weight: 1, arbitrary: longText(4_000) });

const oddNumber = fc.oneof(
  fc.constantFrom(...ODD_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Values of every JSON type, odd ones first; objects with built-in names as keys; arrays where objects belong. */
const { oddValue } = fc.letrec<{ oddValue: unknown }>((tie) => ({
  oddValue: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    oddText,
    oddNumber,
    fc.constantFrom(true, false, null),
    fc.constantFrom({}, [], [{}], [[]]),
    fc.array(tie("oddValue"), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.constantFrom(...BUILT_IN_NAMES, ...FIELD_NAMES), tie("oddValue")), { maxLength: 4 })
      .map((entries) => Object.fromEntries(entries)),
  ),
}));

const realId = (ids: number[]) => fc.oneof(fc.constantFrom(...ids), fc.integer({ min: 1, max: 40 }));
const isoDate = fc
  .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
  .map((d) => d.toISOString());

/** A plausible value for a key, so a body gets past its first checks and into the next ones. */
function plausibleValue(key: string, ids: number[]): fc.Arbitrary<unknown> {
  if (/_ids$/.test(key)) return fc.array(realId(ids), { maxLength: 5 });
  if (/(^id|_id|_pk)$/.test(key) || key === "event" || key === "basket") return realId(ids);
  if (/^(is_|should_)|testing|accepted|preview/.test(key)) return fc.boolean();
  if (/date|_at$/.test(key)) return isoDate;
  if (/email/.test(key)) return fc.constantFrom("root@example.org", "buyer@example.org", "nobody@example.org");
  // Never the current password: a password change that succeeded would end the fuzzing actors' sessions.
  if (/password/.test(key)) return fc.constant(key.startsWith("current") ? "not-the-password-1!" : PASSWORD);
  if (key === "answers") return fc.array(fc.record({ extra_info_id: realId(ids), value: oddText }), { maxLength: 3 });
  return fc.oneof(fc.constantFrom(...DOMAIN_WORDS), fc.integer({ min: 0, max: 100 }), fc.string({ maxLength: 12 }));
}

/** A template field to leave out. */
const DROP = Symbol("drop");

interface Body {
  contentType: string | null;
  text: string | FormData | URLSearchParams;
}

/**
 * Bodies: mostly the route's learned template (a body it accepts, see learnTemplate) with a few fields changed to
 * odd values, dropped or added, so the input gets past the first check and into the services; otherwise objects
 * of known keys, odd JSON values, deep or broken JSON, forms.
 */
function bodyArbitrary(template: Record<string, unknown>, keys: string[], ids: number[]): fc.Arbitrary<Body> {
  const templateKeys = Object.keys(template);
  const change = fc.tuple(
    fc.oneof(
      { weight: 4, arbitrary: templateKeys.length ? fc.constantFrom(...templateKeys) : fc.constantFrom(...keys) },
      { weight: 1, arbitrary: fc.constantFrom(...keys, ...BUILT_IN_NAMES) },
    ),
    fc.oneof({ weight: 4, arbitrary: oddValue }, { weight: 1, arbitrary: fc.constant(DROP) }),
  );
  const mutated = fc.array(change, { maxLength: 3 }).map((changes) => {
    const body: Record<string, unknown> = { ...template };
    for (const [k, v] of changes)
      if (v === DROP) delete body[k];
      else Object.defineProperty(body, k, { value: v, enumerable: true, configurable: true, writable: true });
    return body;
  });
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...keys) },
    { weight: 1, arbitrary: fc.constantFrom(...BUILT_IN_NAMES) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
  const field = key.chain((k) =>
    fc.tuple(fc.constant(k), fc.oneof({ weight: 3, arbitrary: plausibleValue(k, ids) }, oddValue)),
  );
  const object = fc.array(field, { maxLength: 8 }).map((entries) => Object.fromEntries(entries));
  const json = (text: fc.Arbitrary<string>) =>
    fc.tuple(text, fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", null));
  return fc
    .oneof(
      { weight: 10, arbitrary: json(mutated.map((value) => JSON.stringify(value))) },
      { weight: 4, arbitrary: json(object.map((value) => JSON.stringify(value))) },
      { weight: 3, arbitrary: json(oddValue.map((value) => JSON.stringify(value) ?? "null")) },
      { weight: 2, arbitrary: json(deepJson(5_000)) },
      {
        weight: 1,
        arbitrary: json(fc.constantFrom("{", "[1,", '{"a":}', "nul", "\u0000", "'a'", "{}{}", '{"a":1}x', "")),
      },
      {
        weight: 2,
        arbitrary: fc
          .oneof(mutated, object)
          .map(
            (value) =>
              [
                new URLSearchParams(
                  Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? v : (JSON.stringify(v) ?? "")]),
                ),
                "application/x-www-form-urlencoded",
              ] as const,
          ),
      },
      {
        weight: 1,
        arbitrary: object.map((value) => {
          const form = new FormData();
          for (const [k, v] of Object.entries(value))
            form.append(k, typeof v === "string" ? v : (JSON.stringify(v) ?? ""));
          return [form, null] as const; // fetch sets multipart/form-data with its boundary
        }),
      },
      {
        weight: 1,
        arbitrary: json(fc.string({ maxLength: 200 })).map(
          ([text]) => [text, "multipart/form-data; boundary=x"] as const,
        ),
      },
    )
    .map(([text, contentType]) => ({ text, contentType }));
}

/** A query: known keys and list parameters, with odd values, keys repeated, JSON where JSON is read. */
function queryArbitrary(ids: number[], secrets: string[]): fc.Arbitrary<[string, string][]> {
  const jsonText = fc.oneof(
    oddValue.map((value) => JSON.stringify(value) ?? "null").filter((text) => text.length < 4_000),
    deepJson(600),
    fc.constantFrom(...BUILT_IN_NAMES).map((name) => JSON.stringify([name, "ASC"])),
    fc.tuple(fc.constantFrom(...FIELD_NAMES), oddValue).map(([k, v]) => JSON.stringify({ [k]: v })),
    fc.tuple(realId(ids), realId(ids)).map(([a, b]) => JSON.stringify([Math.min(a, b), Math.max(a, b)])),
  );
  const value = fc.oneof(
    { weight: 3, arbitrary: urlText },
    { weight: 2, arbitrary: realId(ids).map(String) },
    { weight: 1, arbitrary: fc.constantFrom(...secrets) },
  );
  const pair = fc.oneof(
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom("sort", "range", "filter"), jsonText) },
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...FIELD_NAMES), value) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...BUILT_IN_NAMES), value) },
  );
  return fc.array(pair, { maxLength: 6 });
}

const pathParam = (ids: number[]) =>
  fc.oneof(
    { weight: 3, arbitrary: realId(ids).map(String) },
    { weight: 3, arbitrary: fc.constantFrom(...NUMBER_TEXTS, ...BUILT_IN_NAMES, "abc", "true", "[1]", "-0", "١") },
    { weight: 1, arbitrary: oddNumber.map(String) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 30 }) },
    { weight: 1, arbitrary: fc.integer({ min: 17, max: 4_000 }).map((n) => "9".repeat(n)) },
  );

const encodeSegment = (text: string) => encodeURIComponent(wellFormed(text));

// ---------------------------------------------------------------------------------------------------------------
// The run

interface Route {
  method: string;
  /** without /api/v1, as in NON_JSON_ROUTES */
  path: string;
}

interface Finding {
  route: string;
  actor: Actor;
  status: number;
  problem: string;
  request: string;
}

describe("fuzzing every route with bad input", () => {
  let ctx: TestContext;
  const tokens: Record<Actor, string | undefined> = { anonymous: undefined, superuser: "", owner: "", buyer: "" };
  let ids: number[] = [];
  let secrets: string[] = [];
  let roomEventId = 0;

  beforeAll(async () => {
    ctx = await createTestContext();
    await createUser(ctx.database, { email: "root@example.org", password: PASSWORD, isSuperuser: true });
    tokens.superuser = await loginAs(ctx, "root@example.org", PASSWORD);
    const sale = await createOnSaleEvent(ctx, { stock: 50, price: 4500 });
    tokens.owner = await loginAs(ctx, sale.email, PASSWORD);
    // Its unit has a Stripe account: the Stripe webhook of that unit checks bodies against a real signing secret.
    await writeUnitStripeSecrets(ctx, sale.event.unitId, {
      secretKey: "sk_test_fuzz00000000",
      webhookSecret: "whsec_fuzz0000000000",
    });
    const draft = await createOnSaleEvent(ctx, { stock: 5, status: "draft" });
    // A buyer whose basket went through the demo payment: its ticket PDF and the payment page are reachable.
    const buyer = await createBuyer(ctx, sale.event.id, sale.moduleId);
    tokens.buyer = buyer.token;
    const item = await ctx.call("POST", "/frontend/selected-nodes", {
      token: buyer.token,
      body: { basket_id: buyer.basketId, node_id: sale.article.node.id },
    });
    await ctx.call("POST", "/frontend/billing-information", {
      token: buyer.token,
      body: {
        basket_id: buyer.basketId,
        first_name: "Ada",
        last_name: "Lovelace",
        email: "buyer@example.org",
        address: "1 Rue du Lac",
        postal_code: "1006",
        city: "Lausanne",
        country: "CH",
      },
    });
    const checkout = await ctx.call("POST", `/frontend/baskets/${buyer.basketId}/checkout`, {
      token: buyer.token,
      body: { payment_method: "online", terms_accepted: true },
    });
    const paymentUrl = new URL(checkout.body.payment_url);
    const sig = paymentUrl.searchParams.get("sig") ?? "";
    await ctx.app.request(paymentUrl.pathname, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `sig=${sig}&outcome=success`,
    });
    const basket = await ctx.call("GET", `/frontend/baskets/${buyer.basketId}`, { token: buyer.token });
    expect(basket.body.status).toBe("validated");
    // And a basket still open, for the calls that change one.
    const open = await ctx.call("POST", "/frontend/baskets", { token: buyer.token, body: { event_id: sale.event.id } });
    expect(open.status).toBe(201);
    // An event whose waiting room is open (at a rate that admits its first place and not, during the run, the next),
    // where the buyer holds the first place: the room's routes reach past their lookups. The on-sale event above has
    // no room, so the basket routes are not refused for want of a turn.
    const queued = await createOnSaleEvent(ctx, { stock: 5 });
    const room = await ctx.call("PUT", `/events/${queued.event.id}/waiting-room`, {
      token: tokens.superuser,
      body: { opens_at: new Date(Date.now() - 1_000).toISOString(), rate_per_minute: 1, admission_minutes: 60 },
    });
    expect(room.status, JSON.stringify(room.body)).toBe(200);
    const queuedLogin = await ctx.call("POST", "/auth/anonymous-login", {
      token: buyer.token,
      headers: { "x-real-ip": nextBuyerAddress() },
      body: { active_module_id: queued.moduleId },
    });
    tokens.buyer = queuedLogin.body.access_token;
    const place = await ctx.call("POST", "/frontend/waiting-room", {
      token: tokens.buyer,
      body: { event_id: queued.event.id },
    });
    expect(place.body.state, JSON.stringify(place.body)).toBe("admitted");
    // A row of every element-tree resource, so that its GET, PUT and DELETE find one.
    const create = async (resource: string, body: Record<string, unknown>) => {
      const created = await ctx.call("POST", `/${resource}`, {
        token: tokens.superuser,
        body: { event_id: sale.event.id, ...body },
      });
      expect(created.status, `${resource}: ${JSON.stringify(created.body)}`).toBe(201);
      return created.body.id as number;
    };
    const conditionId = await create("conditions", { name: "VIP", logical_operator: "and" });
    const groupId = await create("node-extra-info-groups", { name: "Diet" });
    const rows = [
      conditionId,
      groupId,
      await create("statements", {
        condition_id: conditionId,
        left_hand_operand: "promotion_code",
        operator: "=",
        right_hand_value: "VIP",
      }),
      await create("promotion-codes", { name: "VIP", value: "VIP" }),
      await create("node-tags", { name: "Tag" }),
      await create("points-of-sale", { title: "Desk" }),
      await create("node-extra-infos", { group_id: groupId, name: "Diet", type: "text" }),
      await create("node-price-rules", { mode: "minus", value: 100, condition_id: conditionId }),
      await create("node-accesses", { label: "Members" }),
      await create("node-availabilities", { name: "Window" }),
    ];
    // A waiting list on the on-sale event (its buyers sign in by email), with an entry in line: the list's routes
    // reach past their lookups, and an offer's routes find an entry (with a wrong code: 404).
    const entryId = await ctx.database.transaction(function* (tx) {
      const eventId = sale.event.id;
      yield* run(tx.insert(schema.eventAccessMethods).values({ eventId, method: "trusted_email" }).run());
      yield* run(tx.insert(schema.waitingLists).values({ eventId, offerMinutes: 60, automatic: false }).run());
      const email = "in-line@example.org";
      const login = yield* run(
        tx
          .insert(schema.frontendLogins)
          .values({ eventId, method: "trusted_email", email, username: email, validatedAt: new Date().toISOString() })
          .returning()
          .get(),
      );
      const entry = yield* run(
        tx
          .insert(schema.waitingListEntries)
          .values({ eventId, loginId: login.id, email, title: "Entry", quantity: 1, nodeId: sale.article.node.id })
          .returning()
          .get(),
      );
      return entry.id;
    });
    ids = [
      ...new Set([
        sale.event.id,
        entryId,
        draft.event.id,
        queued.event.id,
        sale.moduleId,
        sale.article.node.id,
        sale.organiser.personalUnitId as number,
        buyer.basketId,
        buyer.loginId,
        item.body.id,
        checkout.body.payment_intent.id,
        checkout.body.invoice.id,
        open.body.id,
        ...rows,
      ]),
    ];
    secrets = [sig, sale.event.frontendPath];
    roomEventId = queued.event.id;
  });
  afterAll(async () => ctx.close());

  it(
    "never answers 500, and answers every error as JSON with a list of messages",
    async () => {
      const started = performance.now();
      const routes = fuzzedRoutes(ctx);
      const findings: Finding[] = [];
      let requests = 0;
      const reached: Record<Actor, number> = { anonymous: 0, superuser: 0, owner: 0, buyer: 0 };
      const statuses = new Map<number, number>();

      async function send(route: Route, actor: Actor, url: string, body: Body | null, language: string) {
        const headers: Record<string, string> = { "accept-language": language };
        const token = tokens[actor];
        if (token) headers.authorization = `Bearer ${token}`;
        if (body?.contentType) headers["content-type"] = body.contentType;
        requests += 1;
        const response = await ctx.app.request(`/api/v1${url}`, { method: route.method, headers, body: body?.text });
        if (response.status !== 401) reached[actor] += 1;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const text = await response.text();
        const problem = checkAnswer(route, response, text);
        if (problem) {
          const shown = typeof body?.text === "string" ? body.text : String(body?.text ?? "");
          findings.push({
            route: `${route.method} ${route.path}`,
            actor,
            status: response.status,
            problem,
            request: `${route.method} ${url.slice(0, 300)} ${body?.contentType ?? ""} ${shown.slice(0, 300)}`,
          });
        }
        return { status: response.status, json: parseJson(text) };
      }

      // Learning: a body (and path ids) each route accepts, found from its own answers: a PUT starts from the
      // record its GET answers; each 400 names the fields to fix and says what it expects (an id, one of some
      // options, a number from…). Bodies are then mutated from there.
      const templates = new Map<string, Template>();
      let learned = 0;
      for (const route of routes) {
        // The room's routes learn on the event with a room (a PUT found on the on-sale event would put one there).
        const learnOn = route.path.includes("/waiting-room") ? [roomEventId, ...ids] : ids;
        const template = await learnTemplate(route, learnOn, (method, actor, url, body) =>
          send(
            { method, path: route.path },
            actor,
            url,
            body && { text: JSON.stringify(body), contentType: "application/json" },
            "en",
          ),
        );
        if (template.isAccepted) learned += 1;
        templates.set(`${route.method} ${route.path}`, template);
      }
      const runsPerRoute = Math.ceil(TARGET_REQUESTS / (routes.length * ACTORS.length));
      for (const [index, route] of routes.entries()) {
        const template = templates.get(`${route.method} ${route.path}`) as Template;
        const keys = [...new Set([...Object.keys(template.body), ...FIELD_NAMES])];
        const request = fc.record({
          params: fc.tuple(
            ...template.params.map((id) => fc.oneof({ weight: 2, arbitrary: fc.constant(id) }, pathParam(ids))),
          ),
          query: queryArbitrary(ids, secrets),
          body:
            route.method === "GET"
              ? fc.constant(null)
              : fc.option(bodyArbitrary(template.body, keys, ids), { freq: 8 }),
          language: fc.constantFrom("en", "fr", "fr-CH,fr;q=0.9", "xx", "*", ""),
        });
        await fc.assert(
          fc.asyncProperty(request, async ({ params: values, query, body, language }) => {
            let position = 0;
            const path = route.path.replace(/:(\w+)/g, () => encodeSegment(values[position++] as string));
            const search = new URLSearchParams(query.map(([k, v]) => [wellFormed(k), wellFormed(v)])).toString();
            const url = search ? `${path}?${search}` : path;
            // Sequential: the answers of one actor must not race another's writes.
            for (const actor of ACTORS) await send(route, actor, url, body, language);
          }),
          { seed: SEED + index, numRuns: runsPerRoute },
        );
      }

      // Still signed in at the end: the fuzz reached past authentication all along.
      for (const actor of ["superuser", "owner"] as const)
        expect((await ctx.call("GET", "/auth/me", { token: tokens[actor] })).status, actor).toBe(200);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const errors500 = findings.filter((f) => f.status >= 500).length;
      console.log(
        `fuzz: ${requests.toLocaleString("en")} requests over ${routes.length} routes, ${errors500} answers of 500, ` +
          `${findings.length} findings in all (seed ${SEED}, ${runsPerRoute} cases a route, ${seconds} s; ` +
          `accepted bodies learned for ${learned} of ${routes.filter((r) => !["GET", "DELETE"].includes(r.method)).length} routes; ` +
          `past authentication: ${ACTORS.map((a) => `${a} ${reached[a]}`).join(", ")}; statuses: ` +
          `${[...statuses]
            .sort(([a], [b]) => a - b)
            .map(([status, n]) => `${status} ×${n}`)
            .join(", ")})`,
      );
      expect(requests).toBeGreaterThanOrEqual(20_000);
      // Each signed-in actor got past authentication on most routes, not only 401s.
      for (const actor of ["superuser", "owner", "buyer"] as const)
        expect(reached[actor], actor).toBeGreaterThan(reached.anonymous);
      expect(summarise(findings)).toEqual([]);
    },
    180_000 * Math.ceil(TARGET_REQUESTS / 22_000),
  );
});

interface Template {
  /** path parameters that found a row */
  params: string[];
  body: Record<string, unknown>;
  /** the route answered the template below 400 */
  isAccepted: boolean;
}

/** An answer's status and its JSON (undefined when it is not JSON). */
interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the fuzzer reads whatever JSON a route answered
  json: any;
}
type Sender = (method: string, actor: Actor, url: string, body: Record<string, unknown> | null) => Promise<Answer>;

/** A value for a field from what its 400 said it expects (zod's English messages and the API's own). */
function guessValue(field: string, message: string, attempt: number, ids: number[]): unknown {
  const option = /expected one of "([^"]+)"/.exec(message) ?? /expected "([^"]+)"/.exec(message);
  if (option) return option[1];
  const expected = /expected (\w+)/.exec(message)?.[1];
  if (expected === "array") return [];
  if (expected === "boolean" || /^(is_|should_)|accepted/.test(field)) return true;
  if (expected === "number") return Number(/>=?\s*(\d+)/.exec(message)?.[1] ?? 1);
  if (/an id|refers to|belongs to|cannot be bought/i.test(message)) return ids[attempt % ids.length];
  if (/email/i.test(field)) return `fuzz-${attempt}@example.org`;
  if (/date|_at$/.test(field) || /datetime/i.test(message)) return `2030-01-0${1 + (attempt % 9)}T10:00:00Z`;
  // Never the real password: a password change that succeeded would end the fuzzing actors' sessions.
  if (/password/.test(field)) return field.startsWith("current") ? "not-the-password-1!" : PASSWORD;
  if (/path/.test(field)) return `fuzz-path-${attempt}`;
  return `Fuzz ${attempt}`;
}

/**
 * A body the route accepts, learned from its answers (up to 6 tries): a PUT starts from what its GET answers;
 * each 400 names the fields to fix (field_errors) or to drop ("Unknown field"). A DELETE is not tried (it would
 * delete the row): its ids are the first its GET finds.
 */
async function learnTemplate(route: Route, ids: number[], send: Sender): Promise<Template> {
  const actor: Actor = route.path.startsWith("/frontend") ? "buyer" : "superuser";
  const candidates = [...new Set([...ids, 1, 2, 3, 4, 5])];
  const names = [...route.path.matchAll(/:(\w+)/g)];
  const urlFor = (id: number) => route.path.replace(/:(\w+)/g, String(id));
  let params = names.map(() => String(candidates[0]));
  // Ids that find a row: a DELETE looks with a GET instead of deleting it.
  const probeMethod = route.method === "DELETE" ? "GET" : route.method;
  if (names.length)
    for (const id of candidates.slice(0, 8)) {
      const answer = await send(probeMethod, actor, urlFor(id), probeMethod === "GET" ? null : {});
      if (answer.status !== 404) {
        params = names.map(() => String(id));
        break;
      }
    }
  let body: Record<string, unknown> = {};
  if (route.method === "GET" || route.method === "DELETE") return { params, body, isAccepted: false };
  const url = urlFor(Number(params[0]));
  if (route.method === "PUT") {
    // The record as its GET answers it (react-admin sends it back whole); /extra-infos has no GET of its own.
    const current = await send("GET", actor, url, null);
    const record = current.status === 200 ? current.json : null;
    if (record && typeof record === "object" && !Array.isArray(record)) body = record;
  }
  const attempts = new Map<string, number>();
  for (let round = 0; round < 6; round += 1) {
    const answer = await send(route.method, actor, url, body);
    if (answer.status < 400) return { params, body, isAccepted: true };
    if (answer.status !== 400) break;
    const { errors = [], field_errors: fieldErrors = {} } = answer.json as {
      errors?: string[];
      field_errors?: Record<string, string>;
    };
    const next = { ...body };
    for (const error of errors)
      for (const unknown of /^Unknown fields?: (.+)$/.exec(error)?.[1]?.split(", ") ?? []) delete next[unknown];
    for (const [path, message] of Object.entries(fieldErrors)) {
      const field = path.split(".")[0] as string;
      const attempt = attempts.get(field) ?? 0;
      attempts.set(field, attempt + 1);
      next[field] = guessValue(field, message, attempt, candidates);
    }
    if (JSON.stringify(next) === JSON.stringify(body)) break;
    body = next;
  }
  return { params, body, isAccepted: false };
}

/** Every method and path the router knows, but its middleware; DELETEs last so the rows stay for the others. */
function fuzzedRoutes(ctx: TestContext): Route[] {
  const seen = new Map<string, Route>();
  for (const { method, path } of ctx.app.routes) {
    if (method === "ALL") continue;
    const route = { method, path: path.replace(/^\/api\/v1/, "") };
    seen.set(`${method} ${route.path}`, route);
  }
  return [...seen.values()].sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What is wrong with an answer, or null. */
function checkAnswer(route: Route, response: Response, text: string): string | null {
  const type = response.headers.get("content-type") ?? "";
  if (response.status >= 500) return `answered ${response.status}: ${text.slice(0, 200)}`;
  if (!type.includes("application/json")) {
    const allowed = NON_JSON_ROUTES[`${route.method} ${route.path}`];
    if (response.status >= 400 || !allowed) return `answered ${response.status} as "${type}", not JSON`;
    return null;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${response.status} with a JSON content type and a body that is not JSON`;
  }
  if (response.status < 400) return null;
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0 || !errors.every((e) => typeof e === "string" && e !== ""))
    return `answered ${response.status} without a list of messages: ${text.slice(0, 200)}`;
  return null;
}

/** One line per route and problem, with the first request that showed it. */
function summarise(findings: Finding[]) {
  const byKind = new Map<string, { count: number; example: Finding }>();
  for (const finding of findings) {
    const key = `${finding.route} | ${finding.problem.replace(/\d+/g, "N").slice(0, 80)}`;
    const entry = byKind.get(key);
    if (entry) entry.count += 1;
    else byKind.set(key, { count: 1, example: finding });
  }
  return [...byKind.entries()].map(
    ([key, { count, example }]) =>
      `${key} ×${count} (as ${example.actor}: ${example.problem.slice(0, 200)} ← ${example.request})`,
  );
}

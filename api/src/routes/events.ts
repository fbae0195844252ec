import { eq, run, schema } from "@ticketing/db";
import { ACCESS_METHODS, EVENT_STATUSES } from "@ticketing/shared/constants";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.ts";
import { forbidden, notFound } from "../lib/errors.ts";
import { answer, idParam, readBody, readQuery, zBooleanFlag, zId, zIsoDate } from "../lib/http.ts";
import { parseListQuery, setContentRange } from "../lib/list-query.ts";
import { assertEditable, canSeeUnit, getVisibleEvent, requireUser } from "../services/access.ts";
import { addArticle, listArticles } from "../services/catalogue.ts";
import {
  communicationOf,
  createEvent,
  deleteEvent,
  EVENT_SORT_FIELDS,
  eventExtras,
  findEventByPath,
  listEvents,
  listPublicEvents,
  moderate,
  presentEvents,
  presentPublicInfos,
  updateEvent,
} from "../services/events.ts";

export const eventRoutes = new Hono<AppEnv>();

const text = (max: number) => z.string().trim().max(max);
const EventFields = {
  name: text(200).min(1),
  frontendTitle: text(200).min(1),
  frontendPath: text(100).min(1),
  startDate: zIsoDate,
  endDate: zIsoDate,
  welcomeText: text(20_000).optional(),
  locationText: text(2_000).optional(),
  registrationsStartDate: zIsoDate.nullable().optional(),
  registrationsEndDate: zIsoDate.nullable().optional(),
  paymentsStartDate: zIsoDate.nullable().optional(),
  paymentsEndDate: zIsoDate.nullable().optional(),
  reservationMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .optional(),
  /** At least 5 minutes to pay, at most a week (a bank-transfer-like wait belongs to point of sale). */
  paymentTermMinutes: z
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .optional(),
  maxItemsPerBasket: z.number().int().min(1).max(500).optional(),
  isPointOfSaleEnabled: z.boolean().optional(),
  accessMethods: z
    .array(z.enum(ACCESS_METHODS))
    .min(1, "errors.access_methods_required")
    .transform((methods) => [...new Set(methods)])
    .optional(),
};
const EventCreate = z.strictObject({ unitId: zId, ...EventFields, status: z.literal("draft").optional() });
// react-admin's edit form sends the whole record back: its read-only fields are accepted and ignored,
// any other unknown key is refused.
const READ_ONLY_EVENT_FIELDS = [
  "id",
  "unitId",
  "createdAt",
  "moderationStatus",
  "moderationDescription",
  "ticketOfficeUrl",
  "ticketOfficeTestingUrl",
  "registrationModuleId",
  "rootNodeId",
  "thirdPartySecretKey",
  "frontendUrl",
  "descriptionHeaderImageId",
  "frontendOrganizers",
  "location",
  "locationAddress",
  "isInLausanne",
  "closedStartDate",
] as const;
const EventUpdate = z
  .strictObject({
    ...EventFields,
    status: z.enum(EVENT_STATUSES),
    ...Object.fromEntries(READ_ONLY_EVENT_FIELDS.map((key) => [key, z.unknown()])),
  })
  .partial()
  .transform((body) => {
    const fields: Record<string, unknown> = { ...body };
    for (const key of READ_ONLY_EVENT_FIELDS) delete fields[key];
    return fields as Partial<z.infer<z.ZodObject<typeof EventFields>>> & { status?: (typeof EVENT_STATUSES)[number] };
  });

const now = (c: { get(key: "deps"): AppEnv["Variables"]["deps"] }) => c.get("deps").now?.() ?? new Date();

// Public (no token): the ticket office's entry point (SPEC 2.3 "Ticket-office guard").
eventRoutes.get("/public-infos", async (c) => {
  const { database } = c.get("deps");
  const query = readQuery(
    c,
    z.object({ path: z.string().min(1).max(100).optional(), testing: zBooleanFlag.optional() }),
  );
  if (query.path === undefined) {
    const events = await listPublicEvents(database.db);
    const extras = await eventExtras(
      database.db,
      events.map((e) => e.id),
    );
    return answer(
      c,
      events.map((e) => presentPublicInfos(e, extras.get(e.id), now(c))),
    );
  }
  const event = await findEventByPath(database.db, query.path);
  if (!event) throw notFound("errors.event_not_found");
  if (query.testing) {
    const user = await requireUser(database.db, c.get("auth"));
    if (!(await canSeeUnit(database.db, user, event.unitId))) throw notFound("errors.event_not_found");
  } else if (event.status !== "public" && event.status !== "closed") throw notFound("errors.event_not_found");
  const extras = await eventExtras(database.db, [event.id]);
  return answer(c, presentPublicInfos(event, extras.get(event.id), now(c)));
});

eventRoutes.get("/", async (c) => {
  const { database, config } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const query = parseListQuery(c, { sortable: EVENT_SORT_FIELDS, idFilters: ["id", "unitId"] });
  const { rows, total } = await listEvents(database.db, user, query);
  setContentRange(c, "events", query.offset, rows.length, total);
  return answer(c, await presentEvents(database.db, rows, config.publicUrl));
});

eventRoutes.post("/", async (c) => {
  const { database, config } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const body = await readBody(c, EventCreate);
  if (!(await canSeeUnit(database.db, user, body.unitId))) throw notFound();
  const event = await createEvent(database, body);
  const [presented] = await presentEvents(database.db, [event], config.publicUrl);
  return answer(c, presented, 201);
});

eventRoutes.get("/:id", async (c) => {
  const { database, config } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const event = await getVisibleEvent(database.db, user, idParam(c));
  const [presented] = await presentEvents(database.db, [event], config.publicUrl);
  return answer(c, presented);
});

eventRoutes.put("/:id", async (c) => {
  const { database, config } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const event = await getVisibleEvent(database.db, user, idParam(c));
  const body = await readBody(c, EventUpdate);
  const updated = await updateEvent(database, event, user, body, config.supportEmail);
  const [presented] = await presentEvents(database.db, [updated], config.publicUrl);
  return answer(c, presented);
});

eventRoutes.delete("/:id", async (c) => {
  const { database, config } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const event = await getVisibleEvent(database.db, user, idParam(c));
  const [presented] = await presentEvents(database.db, [event], config.publicUrl);
  await deleteEvent(database, event);
  return answer(c, presented);
});

for (const [path, action] of [
  ["request", "request"],
  ["approve", "approve"],
  ["request-changes", "requestChanges"],
] as const)
  eventRoutes.post(`/:id/moderation/${path}`, async (c) => {
    const { database, config } = c.get("deps");
    const user = await requireUser(database.db, c.get("auth"));
    const event = await getVisibleEvent(database.db, user, idParam(c));
    if (action !== "request" && !user.isSuperuser) throw forbidden("errors.superuser_only");
    const body =
      action === "requestChanges"
        ? await readBody(
            c,
            z.strictObject({
              description: z.string().trim().min(1, "errors.moderation_description_required").max(5_000),
            }),
          )
        : await readBody(c, z.strictObject({}));
    const updated = await moderate(database, event, action, "description" in body ? body.description : null);
    const [presented] = await presentEvents(database.db, [updated], config.publicUrl);
    return answer(c, presented);
  });

eventRoutes.get("/:id/articles", async (c) => {
  const { database } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const event = await getVisibleEvent(database.db, user, idParam(c));
  return answer(c, await listArticles(database.db, event.id));
});

eventRoutes.post("/:id/articles", async (c) => {
  const { database, config } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const event = await getVisibleEvent(database.db, user, idParam(c));
  assertEditable(event, user, config.supportEmail);
  const body = await readBody(
    c,
    z.strictObject({
      title: z.string().trim().min(1).max(200),
      description: z.string().max(5_000).optional(),
      price: z.number().int("The price is in cents: a whole number").min(0).max(100_000_000),
      stock: z.number().int().min(0).max(10_000_000),
      parentId: zId.optional(),
    }),
  );
  return answer(c, await addArticle(database, event.id, body), 201);
});

/** Communication settings (SPEC 2.2 "communication"): confirmation mail, confirmation page, PDF ticket. */
const CommunicationFields = z
  .strictObject({
    orderConfirmationSubject: z.string().trim().max(300).nullable(),
    orderConfirmationBody: z.string().max(20_000).nullable(),
    paymentReminderSubject: z.string().trim().max(300).nullable(),
    paymentReminderBody: z.string().max(20_000).nullable(),
    confirmationPageText: z.string().max(20_000).nullable(),
    // Only https: a buyer is sent there after paying (never javascript:, data: or plain http).
    confirmationRedirectUrl: z
      .string()
      .trim()
      .max(2_000)
      .refine((address) => address === "" || isHttpsAddress(address), "errors.confirmation_url_https")
      .transform((address) => address || null)
      .nullable(),
    isPdfTicketEnabled: z.boolean(),
    pdfTicketText: z.string().max(5_000).nullable(),
    id: z.unknown(),
    eventId: z.unknown(),
  })
  .partial();

/** A full https address of a named host (no credentials in it): where a buyer may be sent after paying. */
function isHttpsAddress(address: string): boolean {
  if (!URL.canParse(address)) return false;
  const url = new URL(address);
  return url.protocol === "https:" && z.regexes.domain.test(url.hostname) && !url.username && !url.password;
}

eventRoutes.get("/:id/communication", async (c) => {
  const { database } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const event = await getVisibleEvent(database.db, user, idParam(c));
  return answer(c, await communicationOf(database.db, event.id));
});

eventRoutes.put("/:id/communication", async (c) => {
  const { database } = c.get("deps");
  const user = await requireUser(database.db, c.get("auth"));
  const event = await getVisibleEvent(database.db, user, idParam(c));
  const { id: _id, eventId: _eventId, ...changes } = await readBody(c, CommunicationFields);
  // Nothing to change (an untouched form) answers the settings as they are, as every PUT does.
  if (Object.keys(changes).length === 0) return answer(c, await communicationOf(database.db, event.id));
  // What buyers read is part of what moderation approved: locked with the rest of the event once not a draft.
  assertEditable(event, user, c.get("deps").config.supportEmail);
  await database.transaction(function* (tx) {
    yield* run(
      tx
        .update(schema.communicationSettings)
        .set(changes)
        .where(eq(schema.communicationSettings.eventId, event.id))
        .run(),
    );
  });
  return answer(c, await communicationOf(database.db, event.id));
});

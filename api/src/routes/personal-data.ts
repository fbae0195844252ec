// A buyer's personal data (issue 35, docs/decisions/0046): support's export and erasure of everything held about one
// email. Superusers over the whole instance, owners over their units' events; members 403. Signed-in staff only:
// no API token scope.

import { Readable } from "node:stream";
import {
  PersonalData,
  PersonalDataErased,
  PersonalDataErasure,
  PersonalDataErasureRequest,
  PersonalDataErasuresQuery,
  PersonalDataQuery,
} from "@ticketing/shared/schemas/personal-data";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { answer } from "../lib/http.ts";
import { route } from "../lib/route.ts";
import { erasePersonalData } from "../services/personal-data/erasure.ts";
import { listErasures, personalDataCsv, personalDataOf } from "../services/personal-data/export.ts";

export const personalDataRoutes = new Hono<AppEnv>();

const WHO =
  "Superusers: every event of the instance (and what belongs to none: account mails, rate-limit counters); owners: " +
  "the events of the units they own (`unit_id`: one of them; 403 for a unit they are only a member of); members of " +
  "no unit they own: 403. The answer says which units it covered.";

personalDataRoutes.get(
  "/",
  route(
    {
      summary: "Everything held about one buyer's email, as JSON or csv",
      description: [
        "The email is compared trimmed and in any case. Billing information, baskets and their lines, form answers,",
        "invoices with their lines and payments, ticket-office logins and their sessions, waiting-list entries,",
        "check-ins, mails, uploads, rate-limit counters: each row with its event and every stored value.",
        "`format=csv`: a line per value (kind, row, event, field, value), UTF-8 with a BOM.",
        WHO,
      ].join(" "),
      auth: "user",
      query: PersonalDataQuery,
      answer: PersonalData,
      produces: ["application/json", "text/csv; charset=utf-8"],
    },
    async (c, { user, query }) => {
      const data = await personalDataOf(c.get("deps").database.db, user, query, now(c));
      c.header("Cache-Control", "no-store");
      if (query.format === "json") return answer(c, data);
      const file = personalDataCsv(data, c.get("language"), c.var.logger);
      return c.body(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, 200, {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
      });
    },
  ),
);

personalDataRoutes.post(
  "/erasures",
  route(
    {
      summary: "Erase one buyer's personal data at their request",
      description: [
        "`confirmation` is the email typed again (400 otherwise). Names, addresses, answers and emails are replaced,",
        "logins and waiting-list entries anonymised (a buyer in line leaves it), sessions revoked, queued mails",
        "cancelled, uploads and rate-limit counters deleted. Invoices keep their numbers, dates, amounts and lines and",
        "say the data was erased. The answer is the erasure's record (kept without the email) and what it changed;",
        "`found: false` when nothing was held. Erasing again changes nothing more.",
        WHO,
      ].join(" "),
      auth: "user",
      body: PersonalDataErasureRequest,
      answer: PersonalDataErased,
      status: 201,
    },
    async (c, { user, body }) => answer(c, await erasePersonalData(c.get("deps").database, user, body, now(c)), 201),
  ),
);

personalDataRoutes.get(
  "/erasures",
  route(
    {
      summary: "The erasures done, newest first",
      description:
        "Superusers see every one; owners those over units they own. `email` keeps the erasures of that address " +
        "(each record keeps only a salted hash of it); `unit_id` those over one unit. Members of no unit they own: 403.",
      auth: "user",
      query: PersonalDataErasuresQuery,
      answer: PersonalDataErasure.array(),
    },
    async (c, { user, query }) => answer(c, await listErasures(c.get("deps").database.db, user, query)),
  ),
);

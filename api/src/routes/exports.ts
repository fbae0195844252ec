// Back-office lists as csv or xlsx files (docs/design.md §3, docs/decisions/0011-exports.md).
import { Readable } from "node:stream";
import { EXPORT_LISTS } from "@ticketing/shared/constants";
import { ExportFormatQuery } from "@ticketing/shared/schemas/sales";
import { Hono } from "hono";
import { type AppEnv, now } from "../context.ts";
import { parseListQuery } from "../lib/list-query.ts";
import { route } from "../lib/route.ts";
import { CONTENT_TYPES } from "../services/sales/exports/engine.ts";
import { exportList, exportSpec } from "../services/sales/exports/index.ts";

export const exportRoutes = new Hono<AppEnv>();

exportRoutes.get(
  "/:list",
  route(
    {
      summary: "A back-office list as a csv or xlsx file",
      description: [
        `\`list\`: ${EXPORT_LISTS.join(", ")} (404 for another name). \`format\`: csv or xlsx.`,
        "`filter` and `sort` as the list's (JSON, or plain filter keys); `range` is ignored: every row.",
        "The same rows and permissions as the list; an event (or unit) filter naming one you may not see is a 404.",
        "`participants` (one row per sold article, a column per form field), `stocks`, `check-ins` and `waiting-list`",
        "(`testing`, `state`; in order of joining) need an `event_id`;",
        "`preview=true` exports testing baskets only. Headers follow `Accept-Language`; csv is UTF-8 with a BOM.",
      ].join(" "),
      auth: "user",
      scope: "read",
      query: ExportFormatQuery,
      produces: [CONTENT_TYPES.csv, CONTENT_TYPES.xlsx],
    },
    async (c, { user, query }) => {
      const spec = exportSpec(c.req.param("list") ?? "");
      const list = parseListQuery(c, spec.list);
      delete list.filter.format;
      const file = await exportList(c.get("deps").database.db, user, spec, list, {
        format: query.format,
        language: c.get("language"),
        now: now(c),
        logger: c.var.logger,
      });
      return c.body(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, 200, {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Cache-Control": "no-store",
      });
    },
  ),
);

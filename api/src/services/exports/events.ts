// The events list as a file: what organisers plan with (names, path, status, dates, unit). Never the access
// methods' secret keys nor any other setting: the columns are chosen, not the row dumped.
import { eq, schema } from "@ticketing/db";
import { EVENT_COLUMNS, eventsWhere } from "../events.ts";
import { cellsOf, type ExportTable, inBatches, sortKeyOf } from "./engine.ts";
import { checkFilteredUnits, type ExportRequest, fileNameOf, keysetOf } from "./scope.ts";

export async function eventsExport(request: ExportRequest): Promise<ExportTable> {
  const { db, query, t } = request;
  await checkFilteredUnits(request, "unitId");
  const where = await eventsWhere(db, request.user, query);
  const { events, units } = schema;
  const keyset = keysetOf(query, EVENT_COLUMNS, events.id);
  const batches = inBatches(keyset, where, () =>
    db
      .select({
        id: events.id,
        sortKey: sortKeyOf(keyset),
        name: events.name,
        frontendTitle: events.frontendTitle,
        frontendPath: events.frontendPath,
        status: events.status,
        moderationStatus: events.moderationStatus,
        startDate: events.startDate,
        endDate: events.endDate,
        registrationsStartDate: events.registrationsStartDate,
        registrationsEndDate: events.registrationsEndDate,
        paymentsStartDate: events.paymentsStartDate,
        paymentsEndDate: events.paymentsEndDate,
        unit: units.name,
      })
      .from(events)
      .innerJoin(units, eq(units.id, events.unitId))
      .$dynamic(),
  );
  const header = (key: string) => t(`columns.events.${key}`);
  return {
    fileName: fileNameOf(request, "events"),
    sheetName: t("sheets.events"),
    columns: [
      { header: header("id"), kind: "integer" },
      { header: header("name"), kind: "text", width: 30 },
      { header: header("public_title"), kind: "text", width: 30 },
      { header: header("path"), kind: "text" },
      { header: header("status"), kind: "text", width: 12 },
      { header: header("moderation_status"), kind: "text" },
      { header: header("start"), kind: "moment" },
      { header: header("end"), kind: "moment" },
      { header: header("registrations_start"), kind: "moment" },
      { header: header("registrations_end"), kind: "moment" },
      { header: header("payments_start"), kind: "moment" },
      { header: header("payments_end"), kind: "moment" },
      { header: header("unit"), kind: "text" },
    ],
    rows: cellsOf(batches, (rows) =>
      rows.map((row) => [
        row.id,
        row.name,
        row.frontendTitle,
        row.frontendPath,
        t(`values.event_status.${row.status}`),
        t(`values.moderation_status.${row.moderationStatus}`),
        row.startDate,
        row.endDate,
        row.registrationsStartDate,
        row.registrationsEndDate,
        row.paymentsStartDate,
        row.paymentsEndDate,
        row.unit,
      ]),
    ),
  };
}

// The events list as a file: what organisers plan with (names, path, status, dates, unit). Never the access
// methods' secret keys nor any other setting: the columns are chosen, not the row dumped.
import { eq, schema } from "@ticketing/db";
import { EVENT_COLUMNS, eventsWhere } from "../../events/event-list.ts";
import { columnsOf, type ExportTable, inBatches, sortKeyOf } from "./engine.ts";
import { checkFilteredUnits, type ExportRequest, fileNameOf, keysetOf } from "./scope.ts";

export async function eventsExport(request: ExportRequest): Promise<ExportTable> {
  const { db, query, t } = request;
  await checkFilteredUnits(request, "unitId");
  const where = await eventsWhere(db, request.user, query, request.now);
  const { events, units } = schema;
  const keyset = keysetOf(query, EVENT_COLUMNS, events.id);
  const batches = inBatches(keyset, where, () =>
    db
      .select({
        id: events.id,
        sortKey: sortKeyOf(keyset),
        name: events.name,
        frontendTitle: events.frontendTitle,
        frontendTitleFr: events.frontendTitleFr,
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
    ...columnsOf(
      [
        { header: header("id"), kind: "integer", cell: (row) => row.id },
        { header: header("name"), kind: "text", width: 30, cell: (row) => row.name },
        { header: header("public_title"), kind: "text", width: 30, cell: (row) => row.frontendTitle },
        { header: header("public_title_fr"), kind: "text", width: 30, cell: (row) => row.frontendTitleFr },
        { header: header("path"), kind: "text", cell: (row) => row.frontendPath },
        { header: header("status"), kind: "text", width: 12, cell: (row) => t(`values.event_status.${row.status}`) },
        {
          header: header("moderation_status"),
          kind: "text",
          cell: (row) => t(`values.moderation_status.${row.moderationStatus}`),
        },
        { header: header("start"), kind: "moment", cell: (row) => row.startDate },
        { header: header("end"), kind: "moment", cell: (row) => row.endDate },
        { header: header("registrations_start"), kind: "moment", cell: (row) => row.registrationsStartDate },
        { header: header("registrations_end"), kind: "moment", cell: (row) => row.registrationsEndDate },
        { header: header("payments_start"), kind: "moment", cell: (row) => row.paymentsStartDate },
        { header: header("payments_end"), kind: "moment", cell: (row) => row.paymentsEndDate },
        { header: header("unit"), kind: "text", cell: (row) => row.unit },
      ],
      batches,
    ),
  };
}

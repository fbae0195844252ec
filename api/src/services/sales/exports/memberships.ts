// The memberships list as a file: who belongs to which unit, in what role, since when. Never a password hash or
// any other account secret: the person's columns are chosen one by one.
import { eq, schema } from "@ticketing/db";
import { MEMBERSHIP_COLUMNS, membershipsWhere } from "../../accounts/memberships.ts";
import { columnsOf, type ExportTable, inBatches, sortKeyOf } from "./engine.ts";
import { checkFilteredUnits, type ExportRequest, fileNameOf, keysetOf } from "./scope.ts";

export async function membershipsExport(request: ExportRequest): Promise<ExportTable> {
  const { db, query, t } = request;
  await checkFilteredUnits(request, "unitId", "unit");
  const where = await membershipsWhere(db, request.user, query);
  const { memberships, units, users } = schema;
  const keyset = keysetOf(query, MEMBERSHIP_COLUMNS, memberships.id);
  const batches = inBatches(keyset, where, () =>
    db
      .select({
        id: memberships.id,
        sortKey: sortKeyOf(keyset),
        unit: units.name,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        role: memberships.role,
        createdAt: memberships.createdAt,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .innerJoin(units, eq(units.id, memberships.unitId))
      .$dynamic(),
  );
  const header = (key: string) => t(`columns.memberships.${key}`);
  return {
    fileName: fileNameOf(request, "memberships"),
    sheetName: t("sheets.memberships"),
    ...columnsOf(
      [
        { header: header("unit"), kind: "text", width: 30, cell: (row) => row.unit },
        { header: header("email"), kind: "text", width: 30, cell: (row) => row.email },
        { header: header("first_name"), kind: "text", cell: (row) => row.firstName },
        { header: header("last_name"), kind: "text", cell: (row) => row.lastName },
        { header: header("role"), kind: "text", width: 14, cell: (row) => t(`values.role.${row.role}`) },
        { header: header("member_since"), kind: "moment", cell: (row) => row.createdAt },
      ],
      batches,
    ),
  };
}

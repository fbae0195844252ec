import type { PointOfSale } from "@ticketing/shared/schemas/catalogue";
import { useEffect, useState } from "react";
import { type Identifier, useDataProvider } from "react-admin";
import { RowsPanel } from "../editor/RowsPanel.tsx";

/** The event's points of sale (title, description, location), offered by the point-of-sale payment. */
export const PointsOfSalePanel = ({ eventId, readOnly }: { eventId: Identifier; readOnly: boolean }) => {
  const dataProvider = useDataProvider();
  const [rows, setRows] = useState<PointOfSale[]>([]);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let isCurrent = true;
    void version;
    dataProvider
      .getList<PointOfSale>("points-of-sale", {
        filter: { eventId },
        pagination: { page: 1, perPage: 1000 },
        sort: { field: "id", order: "ASC" },
      })
      .then(
        ({ data }) => isCurrent && setRows(data),
        () => undefined,
      );
    return () => {
      isCurrent = false;
    };
  }, [dataProvider, eventId, version]);
  return (
    <div style={{ padding: 16 }}>
      <RowsPanel
        title="admin.editor.pointsOfSale.title"
        resource="points-of-sale"
        eventId={eventId}
        rows={rows}
        fields={[
          { source: "title", label: "admin.editor.pointsOfSale.name", isRequired: true, isBilingual: true },
          {
            source: "description",
            label: "admin.editor.pointsOfSale.description",
            isMultiline: true,
            isBilingual: true,
          },
          { source: "location", label: "admin.editor.pointsOfSale.location", isBilingual: true },
        ]}
        describe={(row) => row.title}
        readOnly={readOnly}
        isEditable
        emptyText="admin.editor.pointsOfSale.empty"
        addLabel="admin.editor.pointsOfSale.add"
        onChanged={() => setVersion((current) => current + 1)}
      />
    </div>
  );
};

import ReceiptLongIcon from "@mui/icons-material/ReceiptLong";
import { formatMoney } from "@ticketing/shared/money";
import type { Basket } from "@ticketing/shared/schemas/sales";
import { DataTable, List, SelectField, useLocaleState, useTranslate } from "react-admin";
import { AdminLink } from "../../auth/AuthCard.tsx";
import { DateTimeField } from "../../fields/DateTimeField.tsx";
import { useVisitedView } from "../../layout/useVisitedView.ts";
import { basketStatusChoices } from "./basketStatus.ts";
import { SalesToolbar, useSalesEvent } from "./salesEvent.tsx";

const buyerName = (basket: Basket) =>
  basket.billingInformation ? `${basket.billingInformation.firstName} ${basket.billingInformation.lastName}` : "";

/** SPEC 2.2: `/events/:id/baskets`, the baskets of one event (`GET /baskets?filter={"event_id":…}`). */
export const EventBasketList = () => {
  useVisitedView("Baskets");
  const { eventId, name, eventPath, basename } = useSalesEvent();
  const translate = useTranslate();
  const [locale] = useLocaleState();

  return (
    <List
      resource="baskets"
      filter={{ eventId }}
      sort={{ field: "createdAt", order: "DESC" }}
      storeKey={`events.${eventId}.baskets`}
      title={translate("admin.baskets.title", { name })}
      actions={
        <SalesToolbar
          eventPath={eventPath}
          other={{ path: "invoices", label: "admin.invoices.button", icon: <ReceiptLongIcon /> }}
        />
      }
    >
      {/* SPEC 2.2: each basket opens its detail page (`/events/:id/baskets/:basketId`), where it is refunded. */}
      <DataTable<Basket>
        bulkActionButtons={false}
        rowClick={(basketId) => `${basename}/events/${eventId}/baskets/${basketId}`}
      >
        <DataTable.Col
          source="id"
          render={(basket) => <AdminLink to={`/events/${eventId}/baskets/${basket.id}`}>{basket.id}</AdminLink>}
        />
        <DataTable.Col source="status">
          <SelectField source="status" choices={basketStatusChoices} />
        </DataTable.Col>
        <DataTable.Col label="resources.baskets.fields.buyer" disableSort render={buyerName} />
        <DataTable.Col
          label="resources.baskets.fields.email"
          disableSort
          render={(basket) => basket.billingInformation?.email ?? ""}
        />
        {/* Derived figures: the API orders baskets by id, status and creation date only. */}
        <DataTable.Col source="total" disableSort render={(basket) => formatMoney(basket.total, locale)} />
        <DataTable.Col source="createdAt">
          <DateTimeField source="createdAt" />
        </DataTable.Col>
        <DataTable.Col source="registrationsCount" disableSort />
      </DataTable>
    </List>
  );
};

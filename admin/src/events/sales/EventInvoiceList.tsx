import { Chip } from "@mui/material";
import { formatMoney } from "@ticketing/shared/money";
import type { InvoiceRow } from "@ticketing/shared/schemas/invoices";
import { BooleanInput, DataTable, List, SelectInput, TopToolbar, useLocaleState, useTranslate } from "react-admin";
import { DateTimeField } from "../../fields/DateTimeField.tsx";
import { ExportButton } from "../../fields/ExportButton.tsx";
import { EventNav } from "../EventNav.tsx";
import { INVOICE_STATUS_COLOURS, invoicePath, invoiceStatusChoices } from "./invoiceStatus.ts";
import { useSalesEvent } from "./salesEvent.tsx";

export const InvoiceStatusChip = ({ invoice }: { invoice: Pick<InvoiceRow, "status" | "isTesting"> }) => {
  const translate = useTranslate();
  return (
    <>
      <Chip
        size="small"
        color={INVOICE_STATUS_COLOURS[invoice.status]}
        label={translate(`admin.invoiceStatus.${invoice.status}`)}
      />
      {invoice.isTesting && (
        <Chip
          size="small"
          color="error"
          variant="outlined"
          label={translate("admin.invoices.testing")}
          sx={{ ml: 1 }}
        />
      )}
    </>
  );
};

const filters = [
  <SelectInput key="status" source="status" choices={invoiceStatusChoices} alwaysOn />,
  // Testing (preview) invoices are apart, as for baskets: shown only when asked.
  <BooleanInput key="preview" source="preview" label="admin.invoices.showTesting" alwaysOn />,
];

/** `/events/:id/invoices`: the invoices and credit notes of one event (`GET /invoices?filter={"event_id":…}`). */
export const EventInvoiceList = () => {
  const { eventId, name, basename } = useSalesEvent();
  const translate = useTranslate();
  const [locale] = useLocaleState();

  return (
    <>
      <EventNav current="invoices" />
      <List
        resource="invoices"
        filter={{ eventId }}
        filters={filters}
        sort={{ field: "number", order: "DESC" }}
        storeKey={`events.${eventId}.invoices`}
        exporter={false}
        title={translate("admin.invoices.title", { name })}
        actions={
          <TopToolbar>
            {/* The invoices as filtered (the testing ones with the switch on), in the list's order. */}
            <ExportButton list="invoices" filter={{ eventId }} />
          </TopToolbar>
        }
      >
        <DataTable<InvoiceRow>
          bulkActionButtons={false}
          rowClick={(_id, _resource, record) => `${basename}${invoicePath(eventId, record)}`}
        >
          <DataTable.Col source="number" render={(invoice) => invoice.displayNumber} />
          <DataTable.Col source="createdAt">
            <DateTimeField source="createdAt" />
          </DataTable.Col>
          <DataTable.Col source="basketReference" disableSort />
          <DataTable.Col
            source="amount"
            render={(invoice) =>
              invoice.isRefund
                ? `${formatMoney(invoice.amount, locale)} (${translate("admin.invoices.creditNote")})`
                : formatMoney(invoice.amount, locale)
            }
          />
          <DataTable.Col<InvoiceRow>
            source="status"
            disableSort
            render={(invoice) => <InvoiceStatusChip invoice={invoice} />}
          />
        </DataTable>
      </List>
    </>
  );
};

import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import ShoppingBasketIcon from "@mui/icons-material/ShoppingBasket";
import { Chip } from "@mui/material";
import { formatMoney } from "@ticketing/shared/money";
import type { Event } from "@ticketing/shared/schemas/events";
import type { InvoiceRow } from "@ticketing/shared/schemas/invoices";
import {
  BooleanInput,
  Button,
  DataTable,
  LinkBase,
  List,
  SelectInput,
  TopToolbar,
  useBasename,
  useCreatePath,
  useGetOne,
  useLocaleState,
  useParams,
  useTranslate,
} from "react-admin";
import { DateTimeField } from "../../fields/DateTimeField.tsx";
import { INVOICE_STATUS_COLOURS, invoicePath, invoiceStatusChoices } from "./invoiceStatus.ts";

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
  const { id } = useParams<{ id?: string }>();
  const eventId = Number(id);
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const createPath = useCreatePath();
  // rowClick's path is the browser's, outside react-admin's basename (as in EventBasketList).
  const basename = useBasename();
  const eventPath = createPath({ resource: "events", id: eventId, type: "edit" });
  const { data: event } = useGetOne<Pick<Event, "id" | "name">>(
    "events",
    { id: eventId },
    { enabled: Number.isInteger(eventId) },
  );

  return (
    <List
      resource="invoices"
      filter={{ eventId }}
      filters={filters}
      sort={{ field: "number", order: "DESC" }}
      storeKey={`events.${eventId}.invoices`}
      title={translate("admin.invoices.title", { name: event?.name ?? "" })}
      actions={
        <TopToolbar>
          <Button component={LinkBase} label="admin.baskets.backToEvent" to={eventPath}>
            <ArrowBackIcon />
          </Button>
          <Button component={LinkBase} label="admin.events.baskets" to={`${eventPath}/baskets`}>
            <ShoppingBasketIcon />
          </Button>
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
  );
};

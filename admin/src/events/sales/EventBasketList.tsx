import { formatMoney } from "@ticketing/shared/money";
import type { Basket } from "@ticketing/shared/schemas/sales";
import {
  DataTable,
  DateInput,
  type Identifier,
  List,
  SearchInput,
  SelectField,
  SelectInput,
  TopToolbar,
  useLocaleState,
  useTranslate,
} from "react-admin";
import { AdminLink } from "../../auth/AuthCard.tsx";
import { DateTimeField } from "../../fields/DateTimeField.tsx";
import { ExportButton } from "../../fields/ExportButton.tsx";
import { useVisitedView } from "../../layout/useVisitedView.ts";
import { basketStatusChoices } from "./basketStatus.ts";
import { usePreviewFlag, withPreview } from "./previewFlag.ts";
import { PreviewSwitch, SalesToolbar, useSalesEvent } from "./salesEvent.tsx";

const buyerName = (basket: Basket) =>
  basket.billingInformation ? `${basket.billingInformation.firstName} ${basket.billingInformation.lastName}` : "";

/**
 * The baskets list's filters (`BasketListFilter`), all shown: a search in the reference, the buyer's names and
 * email, the status, and the creation date's bounds (`created_from` / `created_to`, YYYY-MM-DD, inclusive).
 * Custom actions replace react-admin's, its "add filter" button with them: none is hidden behind it.
 */
const basketFilters = (searchPlaceholder: string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={searchPlaceholder} />,
  <SelectInput key="status" source="status" choices={basketStatusChoices} alwaysOn />,
  <DateInput key="createdFrom" source="createdFrom" label="admin.basketFilters.createdFrom" alwaysOn />,
  <DateInput key="createdTo" source="createdTo" label="admin.basketFilters.createdTo" alwaysOn />,
];

/**
 * docs/specification.md §2.2: `/events/:id/baskets`, the baskets of one event (`GET /baskets?filter={"event_id":…}`).
 */
export const EventBasketList = () => {
  useVisitedView("Baskets");
  const { eventId, name, basename } = useSalesEvent();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [preview] = usePreviewFlag();
  // What the page always asks, the exports as the list: the event's baskets, its testing ones with preview=true.
  const filter = preview ? { eventId, preview: true } : { eventId };
  const basketPath = (basketId: Identifier) => withPreview(`/events/${eventId}/baskets/${basketId}`, preview);

  return (
    <>
      {/* Above the list, so that its filters keep the width of the page beside the exports. */}
      <SalesToolbar current="baskets" preview={preview}>
        <PreviewSwitch />
      </SalesToolbar>
      <List
        resource="baskets"
        filter={filter}
        filters={basketFilters(translate("admin.basketFilters.search"))}
        sort={{ field: "createdAt", order: "DESC" }}
        // react-admin writes the list's parameters (page, filters, sort) into the address by replacing its whole
        // query string, which would drop `preview=true` (docs/specification.md §2.2: the flag stays once turned on). So
        // the address holds the flag alone, and the list's parameters live in the page (storeKey false): each visit
        // opens the event's baskets unfiltered, newest first, as pretix's order list does, rather than under a search
        // typed on an earlier visit (react-admin's store would bring it back even from a plain link).
        disableSyncWithLocation
        storeKey={false}
        exporter={false}
        title={translate("admin.baskets.title", { name })}
        actions={
          <TopToolbar>
            {/* The baskets as filtered and sorted, and their sold articles with their form answers. */}
            <ExportButton list="baskets" filter={filter} />
            <ExportButton list="participants" filter={filter} label="admin.export.participants" />
          </TopToolbar>
        }
      >
        {/* docs/specification.md §2.2: each basket opens its detail page (`/events/:id/baskets/:basketId`), where it
            is refunded. */}
        <DataTable<Basket> bulkActionButtons={false} rowClick={(basketId) => `${basename}${basketPath(basketId)}`}>
          <DataTable.Col
            source="id"
            render={(basket) => <AdminLink to={basketPath(basket.id)}>{basket.id}</AdminLink>}
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
    </>
  );
};

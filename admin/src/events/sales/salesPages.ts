// The event's four sales pages (docs/specification.md §2.2), reached from one another: the baskets list, the dashboard
// and the stocks table carry `preview=true` once it is on; the invoices list has its own testing filter instead.
import { withPreview } from "./previewFlag.ts";

export const SALES_PAGES = ["baskets", "dashboard", "stocks-table", "invoices"] as const;
export type SalesPage = (typeof SALES_PAGES)[number];

/** The pages that read the address's `preview=true`. */
const PREVIEW_PAGES: ReadonlySet<SalesPage> = new Set(["baskets", "dashboard", "stocks-table"]);

/** The i18n key of a page's name. */
export const SALES_PAGE_LABELS: Record<SalesPage, string> = {
  baskets: "admin.salesPages.baskets",
  dashboard: "admin.salesPages.dashboard",
  "stocks-table": "admin.salesPages.stocksTable",
  invoices: "admin.salesPages.invoices",
};

/** The path of one of the event's sales pages under its edit page's path, with the flag when it reads it. */
export const salesPagePath = (eventPath: string, page: SalesPage, preview: boolean) =>
  withPreview(`${eventPath}/${page}`, preview && PREVIEW_PAGES.has(page));

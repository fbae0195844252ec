import {
  Box,
  Card,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from "@mui/material";
import { visuallyHidden } from "@mui/utils";
import type { StockRow } from "@ticketing/shared/schemas/sales";
import { useId, useMemo, useState } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { ExportButton } from "../../fields/ExportButton.tsx";
import { intlLocaleOf } from "../../i18nProvider.ts";
import { EmptyFigures, SalesReport } from "./SalesReport.tsx";
import {
  nextSort,
  STOCK_COLUMNS,
  type StockColumn,
  type StockSort,
  SUMMED_COLUMNS,
  sortStockRows,
  stockTotals,
  TEXT_COLUMNS,
  UNLIMITED_COLUMNS,
} from "./stocksTable.ts";

/** Where a column's cell sits: the title heads its row; text to the left, figures to the right. */
const cellPlace = (column: (typeof STOCK_COLUMNS)[number]) =>
  ({
    component: column === "title" ? "th" : "td",
    scope: column === "title" ? "row" : undefined,
    align: TEXT_COLUMNS.has(column) ? "left" : "right",
  }) as const;

const StockTable = ({ rows }: { rows: StockRow[] }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const captionId = useId();
  const [sort, setSort] = useState<StockSort | null>(null);
  const sorted = useMemo(() => sortStockRows(rows, sort, intlLocaleOf(locale)), [rows, sort, locale]);
  const totals = useMemo(() => stockTotals(rows), [rows]);
  const number = new Intl.NumberFormat(intlLocaleOf(locale));

  const cell = (row: StockRow, column: StockColumn) => {
    const value = row[column];
    if (value === null)
      return (
        <Typography component="span" variant="body2" color="text.secondary">
          {translate("admin.stocksTable.unlimited")}
        </Typography>
      );
    return typeof value === "number" && column !== "id" ? number.format(value) : value;
  };

  return (
    <Card>
      <Typography id={captionId} variant="body2" color="text.secondary" sx={{ p: 2, pb: 0 }}>
        {translate("admin.stocksTable.caption")} {translate("admin.stocksTable.note")}
      </Typography>
      <TableContainer>
        <Table size="small" aria-describedby={captionId}>
          <TableHead>
            <TableRow>
              {STOCK_COLUMNS.map((column) => {
                const active = sort?.column === column;
                return (
                  <TableCell
                    key={column}
                    align={TEXT_COLUMNS.has(column) ? "left" : "right"}
                    sortDirection={active ? sort.order : false}
                  >
                    <TableSortLabel
                      active={active}
                      direction={active ? sort.order : "asc"}
                      onClick={() => setSort(nextSort(sort, column))}
                    >
                      {translate(`admin.stocksTable.columns.${column}`)}
                      {active && (
                        <Box component="span" sx={visuallyHidden}>
                          {translate(
                            sort.order === "asc"
                              ? "admin.stocksTable.sortedAscending"
                              : "admin.stocksTable.sortedDescending",
                          )}
                        </Box>
                      )}
                    </TableSortLabel>
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>
            {sorted.map((row) => (
              <TableRow key={row.id} hover>
                {STOCK_COLUMNS.map((column) => (
                  <TableCell
                    key={column}
                    {...cellPlace(column)}
                    sx={UNLIMITED_COLUMNS.has(column) || column === "id" ? { whiteSpace: "nowrap" } : undefined}
                  >
                    {cell(row, column)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
          {rows.length > 1 && (
            <TableFooter>
              <TableRow>
                {STOCK_COLUMNS.map((column) => (
                  <TableCell
                    key={column}
                    {...cellPlace(column)}
                    sx={{ fontWeight: "bold", color: "text.primary", fontSize: "inherit" }}
                  >
                    {column === "title"
                      ? translate("admin.stocksTable.allArticles")
                      : (SUMMED_COLUMNS as readonly string[]).includes(column)
                        ? number.format(totals[column as keyof typeof totals])
                        : ""}
                  </TableCell>
                ))}
              </TableRow>
            </TableFooter>
          )}
        </Table>
      </TableContainer>
    </Card>
  );
};

/**
 * docs/specification.md §2.2 `/events/:id/stocks-table`: each article of the event with its stock and the number of its
 * units in baskets by status (`GET /events/:id/stocks`), sortable by any column, exported as csv or xlsx; real sales,
 * or the testing ones with `preview=true`.
 */
export const StocksTablePage = () => (
  <SalesReport
    page="stocks-table"
    method="getEventStocks"
    titleKey="admin.stocksTable.title"
    actions={(table, preview) => <ExportButton list="stocks" filter={{ eventId: table.eventId, preview }} />}
  >
    {(table) =>
      table.rows.length === 0 ? <EmptyFigures text="admin.stocksTable.empty" /> : <StockTable rows={table.rows} />
    }
  </SalesReport>
);

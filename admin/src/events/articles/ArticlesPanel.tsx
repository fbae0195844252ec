import {
  Alert,
  Box,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { formatMoney } from "@ticketing/shared/money";
import { useCallback, useEffect, useId, useState } from "react";
import { type Identifier, useDataProvider, useLocaleState, useRecordContext, useTranslate } from "react-admin";
import type { Article, TicketingDataProvider } from "../../dataProvider.ts";
import { AddArticleForm } from "./AddArticleForm.tsx";

type ArticlesState = { status: "loading" } | { status: "loaded"; articles: Article[] } | { status: "failed" };

function useArticles(eventId: Identifier | undefined) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [state, setState] = useState<ArticlesState>({ status: "loading" });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (eventId === undefined) return;
    let isCurrent = true;
    // `version` is the refetch trigger after an article was added.
    void version;
    dataProvider.getArticles(eventId).then(
      ({ data }) => isCurrent && setState({ status: "loaded", articles: data }),
      () => isCurrent && setState({ status: "failed" }),
    );
    return () => {
      isCurrent = false;
    };
  }, [dataProvider, eventId, version]);
  const refetch = useCallback(() => setVersion((current) => current + 1), []);
  return { state, refetch };
}

/** The event's articles (title, price, stock) with a form to add one; shown below the event form. */
/** `readOnly`: the event is locked for the user (not a draft, not a superuser): no adding. */
export const ArticlesPanel = ({ readOnly = false }: { readOnly?: boolean }) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const headingId = useId();
  const { state, refetch } = useArticles(record?.id);
  if (!record) return null;

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" id={headingId} gutterBottom>
        {translate("admin.articles.title")}
      </Typography>
      {state.status === "loading" && <CircularProgress size={24} />}
      {state.status === "failed" && <Alert severity="error">{translate("admin.articles.loadFailed")}</Alert>}
      {state.status === "loaded" && state.articles.length === 0 && (
        <Typography color="text.secondary">{translate("admin.articles.empty")}</Typography>
      )}
      {state.status === "loaded" && state.articles.length > 0 && (
        <Table size="small" aria-labelledby={headingId}>
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.articles.fields.title")}</TableCell>
              <TableCell align="right">{translate("admin.articles.fields.price")}</TableCell>
              <TableCell align="right">{translate("admin.articles.fields.maximum")}</TableCell>
              <TableCell align="right">{translate("admin.articles.fields.sold")}</TableCell>
              <TableCell align="right">{translate("admin.articles.fields.remaining")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {state.articles.map((article) => (
              <TableRow key={article.nodeId}>
                <TableCell>{article.title}</TableCell>
                <TableCell align="right">{formatMoney(article.price, locale)}</TableCell>
                {article.stock ? (
                  <>
                    <TableCell align="right">{article.stock.maximum}</TableCell>
                    <TableCell align="right">{article.stock.sold}</TableCell>
                    <TableCell align="right">{article.stock.remaining}</TableCell>
                  </>
                ) : (
                  <TableCell align="right" colSpan={3}>
                    {translate("admin.articles.unlimited")}
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {!readOnly && <AddArticleForm eventId={record.id} onAdded={refetch} />}
    </Box>
  );
};

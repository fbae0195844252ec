import {
  Alert,
  Box,
  Button,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { formatMoney } from "@ticketing/shared/money";
import { type FormEvent, useId, useState } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import type { PricePreviewRow } from "../../dataProvider.ts";
import { useEditor } from "./EditorContext.tsx";

/** Splits "EARLY, vip" into codes; blanks dropped. */
export const codesOf = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((code) => code.trim())
    .filter(Boolean);

/** `GET /events/:id/price-preview`: every article's and option's price for a visitor (email, codes). */
export const PricePreviewPanel = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { dataProvider, eventId } = useEditor();
  const headingId = useId();
  const [email, setEmail] = useState("");
  const [codes, setCodes] = useState("");
  const [state, setState] = useState<{ rows: PricePreviewRow[] } | { error: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const { data } = await dataProvider.getPricePreview(eventId, { email, codes: codesOf(codes) });
      setState({ rows: data });
    } catch (error) {
      setState({ error: error instanceof Error && error.message ? error.message : "admin.errors.unexpected" });
    }
  };
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        {translate("admin.editor.preview.title")}
      </Typography>
      <Stack
        component="form"
        onSubmit={submit}
        noValidate
        direction={{ xs: "column", md: "row" }}
        spacing={2}
        sx={{ alignItems: { md: "flex-start" } }}
      >
        <TextField
          size="small"
          type="email"
          label={translate("admin.editor.preview.email")}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          size="small"
          label={translate("admin.editor.preview.codes")}
          helperText={translate("admin.editor.preview.codesHelp")}
          value={codes}
          onChange={(e) => setCodes(e.target.value)}
        />
        <Button type="submit" variant="outlined">
          {translate("admin.editor.preview.show")}
        </Button>
      </Stack>
      {state && "error" in state && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {translate(state.error, { _: state.error })}
        </Alert>
      )}
      {state && "rows" in state && (
        <Table size="small" aria-label={translate("admin.editor.preview.results")} sx={{ mt: 2 }}>
          <TableHead>
            <TableRow>
              <TableCell>{translate("admin.editor.node.title")}</TableCell>
              <TableCell>{translate("admin.editor.preview.category")}</TableCell>
              <TableCell align="right">{translate("admin.editor.preview.price")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {state.rows.map((row) => (
              <TableRow key={row.nodeId}>
                <TableCell>{row.title}</TableCell>
                <TableCell>{translate(`admin.editor.categories.${row.category}`, { _: row.category })}</TableCell>
                <TableCell align="right">{formatMoney(row.price, locale)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
};

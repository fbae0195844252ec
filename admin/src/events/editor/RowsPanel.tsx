import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import {
  Box,
  Button,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { type FormEvent, useId, useState } from "react";
import { HttpError, type Identifier, useDataProvider, useNotify, useTranslate } from "react-admin";
import { BilingualTextField } from "../../fields/BilingualTextInput.tsx";
import { ConfirmDialog, FormDialog } from "./Dialogs.tsx";

export interface RowsPanelField {
  source: string;
  label: string;
  isRequired?: boolean;
  isMultiline?: boolean;
  /** A text buyers read: its French (`source` + "Fr") is written beside it (docs/decisions/0043). */
  isBilingual?: boolean;
}

/**
 * A small list of an event's rows with an add form and deletion after confirmation: promotion codes, points of
 * sale. `rows` comes from the caller, which reloads after `onChanged`.
 */
export function RowsPanel<R extends { id: Identifier }>({
  title,
  resource,
  eventId,
  rows,
  fields,
  describe,
  readOnly,
  isEditable = false,
  emptyText,
  addLabel,
  onChanged,
}: {
  title: string;
  resource: string;
  eventId: Identifier;
  rows: readonly R[];
  fields: RowsPanelField[];
  describe: (row: R) => string;
  readOnly: boolean;
  /** Rows can be changed in a dialog (points of sale, to write their French later), not only added and deleted. */
  isEditable?: boolean;
  emptyText: string;
  addLabel: string;
  onChanged: () => void;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const headingId = useId();
  const empty = Object.fromEntries(
    fields
      .flatMap((field) => (field.isBilingual ? [field.source, `${field.source}Fr`] : [field.source]))
      .map((key) => [key, ""]),
  );
  const [values, setValues] = useState<Record<string, string>>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState<R | null>(null);
  const [editing, setEditing] = useState<R | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = fields.filter((field) => field.isRequired && (values[field.source] ?? "").trim() === "");
    if (missing.length > 0) {
      setErrors(Object.fromEntries(missing.map((field) => [field.source, translate("ra.validation.required")])));
      return;
    }
    try {
      await dataProvider.create(resource, {
        data: { eventId, ...Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.trim()])) },
      });
    } catch (error) {
      const bodyErrors =
        error instanceof HttpError ? (error.body?.errors as Record<string, unknown> | undefined) : undefined;
      const fieldErrors = Object.fromEntries(
        Object.entries(bodyErrors ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      );
      if (Object.keys(fieldErrors).length > 0) setErrors(fieldErrors);
      else
        notify(error instanceof Error && error.message ? error.message : "admin.errors.unexpected", { type: "error" });
      return;
    }
    setValues(empty);
    setErrors({});
    notify("admin.editor.saved", { type: "success" });
    onChanged();
  };
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        {translate(title)}
      </Typography>
      {rows.length === 0 ? (
        <Typography color="text.secondary">{translate(emptyText)}</Typography>
      ) : (
        <Table size="small" aria-labelledby={headingId}>
          <TableHead>
            <TableRow>
              {fields.map((field) => (
                <TableCell key={field.source}>{translate(field.label)}</TableCell>
              ))}
              {!readOnly && <TableCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id}>
                {fields.map((field) => {
                  const read = row as Record<string, unknown>;
                  const french = field.isBilingual ? String(read[`${field.source}Fr`] ?? "") : "";
                  return (
                    <TableCell key={field.source}>
                      {String(read[field.source] ?? "")}
                      {french && (
                        <Typography variant="body2" color="text.secondary" lang="fr">
                          {french}
                        </Typography>
                      )}
                    </TableCell>
                  );
                })}
                {!readOnly && (
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    {isEditable && (
                      <IconButton
                        size="small"
                        aria-label={translate("admin.editor.linked.edit", { name: describe(row) })}
                        onClick={() => setEditing(row)}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    )}
                    <IconButton
                      size="small"
                      aria-label={translate("admin.editor.deleteNamed", { name: describe(row) })}
                      onClick={() => setDeleting(row)}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {!readOnly && (
        <Stack
          component="form"
          onSubmit={submit}
          noValidate
          // Fields written in two languages take the width, one pair a line.
          direction={fields.some((field) => field.isBilingual) ? "column" : { xs: "column", md: "row" }}
          spacing={2}
          sx={{ mt: 2, alignItems: { md: "flex-start" } }}
        >
          {fields.map((field) =>
            field.isBilingual ? (
              <BilingualTextField
                key={field.source}
                size="small"
                label={translate(field.label)}
                required={field.isRequired}
                multiline={field.isMultiline}
                value={values[field.source] ?? ""}
                valueFr={values[`${field.source}Fr`] ?? ""}
                onChange={(value) => setValues((current) => ({ ...current, [field.source]: value }))}
                onChangeFr={(value) => setValues((current) => ({ ...current, [`${field.source}Fr`]: value }))}
                error={!!errors[field.source]}
                helperText={errors[field.source]}
              />
            ) : (
              <TextField
                key={field.source}
                size="small"
                label={translate(field.label)}
                required={field.isRequired}
                multiline={field.isMultiline}
                value={values[field.source] ?? ""}
                onChange={(event) => setValues((current) => ({ ...current, [field.source]: event.target.value }))}
                error={!!errors[field.source]}
                helperText={errors[field.source]}
              />
            ),
          )}
          <Button type="submit" variant="outlined" startIcon={<AddIcon />} sx={{ flexShrink: 0 }}>
            {translate(addLabel)}
          </Button>
        </Stack>
      )}
      {editing && (
        <EditRowDialog
          resource={resource}
          row={editing}
          fields={fields}
          title={translate("admin.editor.linked.editTitle", {
            kind: translate(fields[0]?.label ?? ""),
            name: describe(editing),
          })}
          onClose={() => setEditing(null)}
          onChanged={onChanged}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={translate("admin.editor.deleteNamed", { name: describe(deleting) })}
          message={translate("admin.editor.deleteMessage")}
          confirmLabel={translate("ra.action.delete")}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            try {
              await dataProvider.delete(resource, { id: deleting.id, previousData: deleting });
              notify("admin.editor.deleted", { type: "success" });
            } catch (error) {
              notify(error instanceof Error && error.message ? error.message : "admin.errors.unexpected", {
                type: "error",
              });
            }
            onChanged();
          }}
        />
      )}
    </Box>
  );
}

/** One row's fields in a dialog, saved with `PUT` (only what changed); the French of each bilingual one beside it. */
function EditRowDialog<R extends { id: Identifier }>({
  resource,
  row,
  fields,
  title,
  onClose,
  onChanged,
}: {
  resource: string;
  row: R;
  fields: RowsPanelField[];
  title: string;
  onClose: () => void;
  onChanged: () => void;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const read = row as unknown as Record<string, unknown>;
  const keys = fields.flatMap((field) => (field.isBilingual ? [field.source, `${field.source}Fr`] : [field.source]));
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(keys.map((key) => [key, String(read[key] ?? "")])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = (key: string) => (value: string) => setValues((current) => ({ ...current, [key]: value }));
  const submit = async () => {
    const missing = fields.filter((field) => field.isRequired && (values[field.source] ?? "").trim() === "");
    if (missing.length > 0)
      return setErrors(Object.fromEntries(missing.map((field) => [field.source, translate("ra.validation.required")])));
    const data = Object.fromEntries(
      Object.entries(values)
        .map(([key, value]) => [key, value.trim()] as const)
        .filter(([key, value]) => value !== String(read[key] ?? "")),
    );
    try {
      if (Object.keys(data).length > 0) await dataProvider.update(resource, { id: row.id, data, previousData: row });
    } catch (error) {
      notify(error instanceof Error && error.message ? error.message : "admin.errors.unexpected", { type: "error" });
      return;
    }
    notify("admin.editor.saved", { type: "success" });
    onChanged();
    onClose();
  };
  return (
    <FormDialog title={title} readOnly={false} onClose={onClose} onSubmit={submit} maxWidth="md">
      {fields.map((field) =>
        field.isBilingual ? (
          <BilingualTextField
            key={field.source}
            label={translate(field.label)}
            required={field.isRequired}
            multiline={field.isMultiline}
            value={values[field.source] ?? ""}
            valueFr={values[`${field.source}Fr`] ?? ""}
            onChange={change(field.source)}
            onChangeFr={change(`${field.source}Fr`)}
            error={!!errors[field.source]}
            helperText={errors[field.source]}
          />
        ) : (
          <TextField
            key={field.source}
            label={translate(field.label)}
            required={field.isRequired}
            multiline={field.isMultiline}
            value={values[field.source] ?? ""}
            onChange={(event) => change(field.source)(event.target.value)}
            error={!!errors[field.source]}
            helperText={errors[field.source]}
          />
        ),
      )}
    </FormDialog>
  );
}

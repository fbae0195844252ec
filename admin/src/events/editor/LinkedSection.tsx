import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import LinkIcon from "@mui/icons-material/Link";
import LinkOffIcon from "@mui/icons-material/LinkOff";
import {
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { type ReactNode, useId, useState } from "react";
import { useTranslate } from "react-admin";
import { type Linked, useEditor } from "./EditorContext.tsx";

/** What a section's own list may do with a row: open its dialog, or remove it from this element. */
export interface LinkedActions<R> {
  /** the id of the section's heading, to name the list by */
  headingId: string;
  edit: (row: R) => void;
  unlink: (row: R) => void;
}

export interface RuleDialogProps<R> {
  /** undefined: create one, linked to `configurationId` */
  row: R | undefined;
  configurationId: number;
  onClose: () => void;
}

/**
 * The rules of one kind linked to a node configuration (limits, price rules, availabilities, accesses, forms):
 * edit, unlink, link an existing one (a limit linked twice is one shared quota), create one.
 */
export function LinkedSection<R extends Linked>({
  title,
  kind,
  resource,
  rows,
  configurationId,
  describe,
  detail,
  Dialog,
  renderList,
}: {
  title: string;
  /** the singular name (an i18n key): "New: Stock" */
  kind: string;
  resource: string;
  rows: readonly R[];
  configurationId: number;
  describe: (row: R) => string;
  detail?: (row: R) => ReactNode;
  Dialog: (props: RuleDialogProps<R>) => ReactNode;
  /** Replaces the list of the rows linked to the configuration (the price rules show the element's whole fold). */
  renderList?: (actions: LinkedActions<R>) => ReactNode;
}) {
  const translate = useTranslate();
  const { dataProvider, readOnly, run } = useEditor();
  const headingId = useId();
  const [editing, setEditing] = useState<R | "new" | null>(null);
  const [toLink, setToLink] = useState("");
  const linked = rows.filter((row) => row.nodeConfigurationIds.includes(configurationId));
  const others = rows.filter((row) => !row.nodeConfigurationIds.includes(configurationId));
  const setLinks = (row: R, nodeConfigurationIds: number[], success: string) =>
    run(
      () =>
        dataProvider.update(resource, {
          id: row.id,
          data: { nodeConfigurationIds },
          previousData: { id: row.id },
        }),
      success,
    );
  const unlink = (row: R) =>
    setLinks(
      row,
      row.nodeConfigurationIds.filter((id) => id !== configurationId),
      "admin.editor.linked.unlinked",
    );
  const heading = translate(title);
  const kindName = translate(kind);
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 2 }}>
      <Typography id={headingId} variant="subtitle1" component="h3">
        {heading}
      </Typography>
      {renderList ? (
        renderList({
          headingId,
          edit: setEditing,
          unlink,
        })
      ) : linked.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate("admin.editor.linked.none")}
        </Typography>
      ) : (
        <List dense aria-labelledby={headingId}>
          {linked.map((row) => {
            const name = describe(row);
            return (
              <ListItem
                key={row.id}
                divider
                secondaryAction={
                  <>
                    <IconButton
                      aria-label={translate(readOnly ? "admin.editor.linked.view" : "admin.editor.linked.edit", {
                        name,
                      })}
                      onClick={() => setEditing(row)}
                    >
                      <EditIcon />
                    </IconButton>
                    {!readOnly && (
                      <IconButton
                        aria-label={translate("admin.editor.linked.unlink", { name })}
                        onClick={() => unlink(row)}
                      >
                        <LinkOffIcon />
                      </IconButton>
                    )}
                  </>
                }
              >
                <ListItemText
                  primary={name}
                  secondary={
                    <>
                      {detail?.(row)}
                      {row.nodeConfigurationIds.length > 1 &&
                        ` · ${translate("admin.editor.linked.shared", { count: row.nodeConfigurationIds.length })}`}
                    </>
                  }
                />
              </ListItem>
            );
          })}
        </List>
      )}
      {!readOnly && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: "center", flexWrap: "wrap" }}>
          <Button size="small" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
            {translate("admin.editor.linked.create", { kind: kindName })}
          </Button>
          {others.length > 0 && (
            <>
              <TextField
                select
                size="small"
                label={translate("admin.editor.linked.existing", { kind: kindName })}
                value={toLink}
                onChange={(event) => setToLink(event.target.value)}
                sx={{ minWidth: 200 }}
              >
                {others.map((row) => (
                  <MenuItem key={row.id} value={String(row.id)}>
                    {describe(row)}
                  </MenuItem>
                ))}
              </TextField>
              <Button
                size="small"
                startIcon={<LinkIcon />}
                disabled={toLink === ""}
                onClick={async () => {
                  const row = others.find((candidate) => String(candidate.id) === toLink);
                  if (!row) return;
                  await setLinks(row, [...row.nodeConfigurationIds, configurationId], "admin.editor.linked.linked");
                  setToLink("");
                }}
              >
                {translate("admin.editor.linked.link", { kind: kindName })}
              </Button>
            </>
          )}
        </Stack>
      )}
      {editing !== null && (
        <Dialog
          row={editing === "new" ? undefined : editing}
          configurationId={configurationId}
          onClose={() => setEditing(null)}
        />
      )}
    </Box>
  );
}

import AddIcon from "@mui/icons-material/Add";
import ArrowDownwardIcon from "@mui/icons-material/ArrowDownward";
import ArrowUpwardIcon from "@mui/icons-material/ArrowUpward";
import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import type { NodeExtraInfo, NodeExtraInfoGroup } from "@ticketing/shared/schemas/catalogue";
import { useId, useState } from "react";
import { useTranslate } from "react-admin";
import { BilingualRow, BilingualTextField, useFrenchLabel } from "../../fields/BilingualTextInput.tsx";
import { ConfirmDialog, FormDialog } from "./Dialogs.tsx";
import { useEditor } from "./EditorContext.tsx";
import {
  draftFromExtraInfo,
  EXTRA_INFO_TYPES,
  type ExtraInfoDraft,
  extraInfoBody,
  extraInfoProblems,
  newExtraInfoDraft,
  settingsOf,
} from "./extraInfoField.ts";
import { LinkedSection, type RuleDialogProps } from "./LinkedSection.tsx";
import { nextOrder, reorderWrites } from "./tree.ts";

/** An extra-info group ("form"): name, inline, required, help text. */
const GroupDialog = ({ row, configurationId, onClose }: RuleDialogProps<NodeExtraInfoGroup>) => {
  const translate = useTranslate();
  const editor = useEditor();
  const [name, setName] = useState(row?.name ?? "");
  const [nameFr, setNameFr] = useState(row?.nameFr ?? "");
  const [helpText, setHelpText] = useState(row?.helpText ?? "");
  const [helpTextFr, setHelpTextFr] = useState(row?.helpTextFr ?? "");
  const [isInline, setInline] = useState(row?.isInline ?? false);
  const [isRequired, setRequired] = useState(row?.isRequired ?? false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = async () => {
    if (name.trim() === "") return setErrors({ name: translate("ra.validation.required") });
    const data = {
      name: name.trim(),
      nameFr: nameFr.trim(),
      helpText: helpText.trim(),
      helpTextFr: helpTextFr.trim(),
      isInline,
      isRequired,
    };
    const answer = await editor.run(
      () =>
        row
          ? editor.dataProvider.update("node-extra-info-groups", { id: row.id, data, previousData: row })
          : editor.dataProvider.create("node-extra-info-groups", {
              data: {
                eventId: editor.eventId,
                ...data,
                order: nextOrder(editor.catalogue.extraInfoGroups),
                nodeConfigurationIds: [configurationId],
              },
            }),
      "admin.editor.saved",
    );
    if (answer === true) onClose();
    else if (answer) setErrors(answer);
  };
  return (
    <FormDialog
      title={translate(row ? "admin.editor.forms.editGroup" : "admin.editor.forms.createGroup", { name })}
      readOnly={editor.readOnly}
      onClose={onClose}
      onSubmit={submit}
      maxWidth="md" // room for each text's English and French side by side
    >
      <BilingualTextField
        label={translate("admin.editor.forms.groupName")}
        value={name}
        valueFr={nameFr}
        onChange={setName}
        onChangeFr={setNameFr}
        required
        disabled={editor.readOnly}
        error={!!errors.name}
        helperText={errors.name}
      />
      <BilingualTextField
        label={translate("admin.editor.forms.helpText")}
        value={helpText}
        valueFr={helpTextFr}
        onChange={setHelpText}
        onChangeFr={setHelpTextFr}
        multiline
        disabled={editor.readOnly}
      />
      <FormControlLabel
        control={
          <Checkbox checked={isInline} onChange={(e) => setInline(e.target.checked)} disabled={editor.readOnly} />
        }
        label={translate("admin.editor.forms.isInline")}
      />
      <FormControlLabel
        control={
          <Checkbox checked={isRequired} onChange={(e) => setRequired(e.target.checked)} disabled={editor.readOnly} />
        }
        label={translate("admin.editor.forms.groupRequired")}
      />
    </FormDialog>
  );
};

/** One form field: the eleven docs/specification.md §9 types, choices for `choice`, a majority for `dateMajor`. */
const FieldDialog = ({
  group,
  row,
  onClose,
}: {
  group: NodeExtraInfoGroup;
  row: NodeExtraInfo | undefined;
  onClose: () => void;
}) => {
  const translate = useTranslate();
  const editor = useEditor();
  const [draft, setDraft] = useState<ExtraInfoDraft>(() => (row ? draftFromExtraInfo(row) : newExtraInfoDraft()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = (patch: Partial<ExtraInfoDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const { hasChoices, hasMajority } = settingsOf(draft.type);
  const frenchLabel = useFrenchLabel();
  const submit = async () => {
    const problems = extraInfoProblems(draft);
    if (Object.keys(problems).length > 0)
      return setErrors(Object.fromEntries(Object.entries(problems).map(([key, message]) => [key, translate(message)])));
    const data = extraInfoBody(draft);
    const siblings = editor.catalogue.extraInfos.filter((info) => info.groupId === group.id);
    const answer = await editor.run(
      () =>
        row
          ? editor.dataProvider.update("node-extra-infos", { id: row.id, data, previousData: row })
          : editor.dataProvider.create("node-extra-infos", {
              data: { eventId: editor.eventId, groupId: group.id, ...data, order: nextOrder(siblings) },
            }),
      "admin.editor.saved",
    );
    if (answer === true) onClose();
    else if (answer) setErrors({ ...answer, choices: answer.choicesJson ?? "", referenceDate: answer.majorJson ?? "" });
  };
  const disabled = editor.readOnly;
  return (
    <FormDialog
      title={translate(row ? "admin.editor.forms.editField" : "admin.editor.forms.createField", {
        name: draft.name,
        group: group.name,
      })}
      readOnly={disabled}
      onClose={onClose}
      onSubmit={submit}
      maxWidth="md" // room for each text's English and French side by side
    >
      <BilingualTextField
        label={translate("admin.editor.forms.fieldName")}
        value={draft.name}
        valueFr={draft.nameFr}
        onChange={(name) => change({ name })}
        onChangeFr={(nameFr) => change({ nameFr })}
        required
        disabled={disabled}
        error={!!errors.name}
        helperText={errors.name}
      />
      <TextField
        select
        label={translate("admin.editor.forms.type")}
        value={draft.type}
        onChange={(e) => change({ type: e.target.value as ExtraInfoDraft["type"] })}
        disabled={disabled}
      >
        {EXTRA_INFO_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {translate(`admin.editor.forms.types.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <BilingualTextField
        label={translate("admin.editor.forms.text")}
        value={draft.text}
        valueFr={draft.textFr}
        onChange={(text) => change({ text })}
        onChangeFr={(textFr) => change({ textFr })}
        disabled={disabled}
      />
      <BilingualTextField
        label={translate("admin.editor.forms.helpText")}
        value={draft.helpText}
        valueFr={draft.helpTextFr}
        onChange={(helpText) => change({ helpText })}
        onChangeFr={(helpTextFr) => change({ helpTextFr })}
        disabled={disabled}
      />
      <FormControlLabel
        control={
          <Checkbox
            checked={draft.isRequired}
            onChange={(e) => change({ isRequired: e.target.checked })}
            disabled={disabled}
          />
        }
        label={translate("admin.editor.forms.fieldRequired")}
      />
      {hasChoices && (
        <BilingualRow>
          <TextField
            label={translate("admin.editor.forms.choices")}
            value={draft.choices}
            onChange={(e) => change({ choices: e.target.value })}
            multiline
            minRows={3}
            required
            fullWidth
            disabled={disabled}
            error={!!errors.choices}
            helperText={errors.choices || translate("admin.editor.forms.choicesHelp")}
          />
          {/* Line by line beside the English: each French line is the label of the English choice on its line. */}
          <TextField
            label={frenchLabel(translate("admin.editor.forms.choices"))}
            value={draft.choicesFr}
            onChange={(e) => change({ choicesFr: e.target.value })}
            multiline
            minRows={3}
            fullWidth
            disabled={disabled}
            helperText={
              draft.choicesFr.trim() === "" && draft.choices.trim() !== ""
                ? `${translate("admin.bilingual.missingFrench")} ${translate("admin.bilingual.choicesFrHelp")}`
                : translate("admin.bilingual.choicesFrHelp")
            }
          />
        </BilingualRow>
      )}
      {hasMajority && (
        <Stack direction="row" spacing={2}>
          <TextField
            type="date"
            label={translate("admin.editor.forms.referenceDate")}
            value={draft.referenceDate}
            onChange={(e) => change({ referenceDate: e.target.value })}
            disabled={disabled}
            error={!!errors.referenceDate}
            helperText={errors.referenceDate || translate("admin.editor.forms.referenceDateHelp")}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label={translate("admin.editor.forms.age")}
            value={draft.age}
            onChange={(e) => change({ age: e.target.value })}
            disabled={disabled}
            error={!!errors.age}
            helperText={errors.age}
            slotProps={{ htmlInput: { inputMode: "numeric" } }}
          />
        </Stack>
      )}
    </FormDialog>
  );
};

/** Reorders rows by rewriting their dense `order` (no move endpoint for forms and fields). */
function useReorder(resource: string) {
  const editor = useEditor();
  return (rows: readonly { id: number; order: number }[], id: number, direction: -1 | 1) =>
    editor.run(async () => {
      for (const write of reorderWrites(rows, id, direction))
        await editor.dataProvider.update(resource, {
          id: write.id,
          data: { order: write.order },
          previousData: { id: write.id },
        });
    });
}

const GroupFields = ({ group, siblings }: { group: NodeExtraInfoGroup; siblings: NodeExtraInfoGroup[] }) => {
  const translate = useTranslate();
  const editor = useEditor();
  const headingId = useId();
  const [editing, setEditing] = useState<NodeExtraInfo | "new" | null>(null);
  const [deleting, setDeleting] = useState<NodeExtraInfo | null>(null);
  const reorderFields = useReorder("node-extra-infos");
  const reorderGroups = useReorder("node-extra-info-groups");
  const fields = editor.catalogue.extraInfos
    .filter((info) => info.groupId === group.id)
    .sort((a, b) => a.order - b.order || a.id - b.id);
  const sortedGroups = [...siblings].sort((a, b) => a.order - b.order || a.id - b.id);
  const groupIndex = sortedGroups.findIndex((candidate) => candidate.id === group.id);
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{ ml: 2, mb: 2, pl: 2, borderLeft: 2, borderColor: "divider" }}
    >
      <Stack direction="row" sx={{ alignItems: "center" }}>
        <Typography id={headingId} variant="subtitle2" component="h4" sx={{ flex: 1 }}>
          {translate("admin.editor.forms.fieldsOf", { name: group.name })}
        </Typography>
        {!editor.readOnly && siblings.length > 1 && (
          <>
            <IconButton
              size="small"
              disabled={groupIndex === 0}
              aria-label={translate("admin.editor.moveUpNamed", { name: group.name })}
              onClick={() => reorderGroups(siblings, group.id, -1)}
            >
              <ArrowUpwardIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              disabled={groupIndex === sortedGroups.length - 1}
              aria-label={translate("admin.editor.moveDownNamed", { name: group.name })}
              onClick={() => reorderGroups(siblings, group.id, 1)}
            >
              <ArrowDownwardIcon fontSize="small" />
            </IconButton>
          </>
        )}
      </Stack>
      <List dense aria-labelledby={headingId}>
        {fields.map((field, index) => (
          <ListItem
            key={field.id}
            divider
            secondaryAction={
              <>
                {!editor.readOnly && (
                  <>
                    <IconButton
                      size="small"
                      disabled={index === 0}
                      aria-label={translate("admin.editor.moveUpNamed", { name: field.name })}
                      onClick={() => reorderFields(fields, field.id, -1)}
                    >
                      <ArrowUpwardIcon fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      disabled={index === fields.length - 1}
                      aria-label={translate("admin.editor.moveDownNamed", { name: field.name })}
                      onClick={() => reorderFields(fields, field.id, 1)}
                    >
                      <ArrowDownwardIcon fontSize="small" />
                    </IconButton>
                  </>
                )}
                <IconButton
                  size="small"
                  aria-label={translate(editor.readOnly ? "admin.editor.linked.view" : "admin.editor.linked.edit", {
                    name: field.name,
                  })}
                  onClick={() => setEditing(field)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
                {!editor.readOnly && (
                  <IconButton
                    size="small"
                    aria-label={translate("admin.editor.deleteNamed", { name: field.name })}
                    onClick={() => setDeleting(field)}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                )}
              </>
            }
          >
            <ListItemText
              primary={field.name}
              secondary={[
                translate(`admin.editor.forms.types.${field.type}`),
                field.isRequired ? translate("admin.editor.forms.fieldRequired") : null,
              ]
                .filter(Boolean)
                .join(" · ")}
            />
          </ListItem>
        ))}
      </List>
      {!editor.readOnly && (
        <Button size="small" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
          {translate("admin.editor.forms.addField", { name: group.name })}
        </Button>
      )}
      {editing !== null && (
        <FieldDialog group={group} row={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} />
      )}
      {deleting && (
        <ConfirmDialog
          title={translate("admin.editor.deleteNamed", { name: deleting.name })}
          message={translate("admin.editor.forms.deleteFieldMessage")}
          confirmLabel={translate("ra.action.delete")}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            editor.run(
              () => editor.dataProvider.delete("node-extra-infos", { id: deleting.id, previousData: deleting }),
              "admin.editor.deleted",
            )
          }
        />
      )}
    </Box>
  );
};

/** The forms builder of an element: its extra-info groups (shareable) and their fields. */
export const FormsSection = ({ configurationId }: { configurationId: number }) => {
  const { catalogue } = useEditor();
  const translate = useTranslate();
  const linked = catalogue.extraInfoGroups.filter((group) => group.nodeConfigurationIds.includes(configurationId));
  return (
    <>
      <LinkedSection
        title="admin.editor.forms.title"
        kind="admin.editor.forms.kind"
        resource="node-extra-info-groups"
        rows={catalogue.extraInfoGroups}
        configurationId={configurationId}
        describe={(group) => group.name}
        detail={(group) =>
          [
            group.isRequired && translate("admin.editor.forms.groupRequired"),
            group.isInline && translate("admin.editor.forms.isInline"),
          ]
            .filter(Boolean)
            .join(" · ")
        }
        Dialog={GroupDialog}
      />
      {linked
        .sort((a, b) => a.order - b.order || a.id - b.id)
        .map((group) => (
          <GroupFields key={group.id} group={group} siblings={linked} />
        ))}
    </>
  );
};

import DeleteIcon from "@mui/icons-material/Delete";
import UploadIcon from "@mui/icons-material/Upload";
import { Box, Button, Chip, Divider, Paper, Stack, Typography } from "@mui/material";
import { EVENT_IMAGE_QUOTA, MAX_IMAGE_BYTES, megabytes } from "@ticketing/shared/images";
import { formatMoney } from "@ticketing/shared/money";
import type { NodeTag } from "@ticketing/shared/schemas/catalogue";
import { type FormEvent, useContext, useId, useState } from "react";
import { DataProviderContext, useLocaleState, useNotify, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { BilingualTextField } from "../../fields/BilingualTextInput.tsx";
import { FileButton } from "../../widgets/FileButton.tsx";
import { useConfirm } from "../../widgets/PromptDialog.tsx";
import { FormDialog } from "./Dialogs.tsx";
import { useEditor } from "./EditorContext.tsx";
import { ElementForm } from "./ElementForm.tsx";
import { FormsSection } from "./FormsSection.tsx";
import { LinkedSection } from "./LinkedSection.tsx";
import { PriceRulesSection } from "./PriceRulesSection.tsx";
import { AccessDialog, AvailabilityDialog, LimitDialog } from "./RuleDialogs.tsx";
import type { TreeNode } from "./tree.ts";

/** `POST /uploaded-images`, then the configuration's `image_id`; the thumbnail is the public file. */
const ImageSection = ({ node }: { node: TreeNode }) => {
  const translate = useTranslate();
  const editor = useEditor();
  const headingId = useId();
  const inputId = useId();
  const { confirm, dialog } = useConfirm();
  // The image's address from the data provider itself: the editor's (react-admin's useDataProvider) expects every
  // method to answer a promise, and threw on this plain string, taking the whole editor down once an element had
  // an image.
  const { imageUrl } = useContext(DataProviderContext) as TicketingDataProvider;
  const notify = useNotify();
  const imageId = node.configuration.imageId ?? null;
  const setImage = (id: number | null) =>
    editor.dataProvider.update("node-configurations", {
      id: node.configuration.id,
      data: { imageId: id },
      previousData: { id: node.configuration.id },
    });
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 2 }}>
      <Typography id={headingId} variant="subtitle1" component="h3">
        {translate("admin.editor.image.title")}
      </Typography>
      {imageId !== null ? (
        <Box
          component="img"
          src={imageUrl(imageId)}
          alt={translate("admin.editor.image.alt", { title: node.configuration.title })}
          sx={{ maxWidth: 160, maxHeight: 120, borderRadius: 1, display: "block", my: 1 }}
        />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate("admin.editor.image.none")}
        </Typography>
      )}
      {!editor.readOnly && (
        <Stack direction="row" spacing={1}>
          <FileButton
            inputId={inputId}
            size="small"
            startIcon={<UploadIcon />}
            accept="image/png,image/jpeg,image/webp,image/gif"
            onFile={async (event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (!file) return;
              const answer = await editor.run(async () => {
                const { data } = await editor.dataProvider.uploadImage(editor.eventId, file);
                await setImage(data.id);
              }, "admin.editor.image.uploaded");
              // A refused file (not an image, over 5 MB) has no field on screen to show it: it is said here.
              if (typeof answer === "object") notify(answer.file ?? Object.values(answer)[0], { type: "error" });
            }}
          >
            {translate("admin.editor.image.upload")}
          </FileButton>
          {imageId !== null && (
            <Button
              size="small"
              color="error"
              startIcon={<DeleteIcon />}
              onClick={async () => {
                const isConfirmed = await confirm({
                  title: "admin.confirms.removeImage.title",
                  message: "admin.confirms.removeImage.text",
                  confirmLabel: "admin.editor.image.remove",
                  isDangerous: true,
                });
                if (isConfirmed) await editor.run(() => setImage(null), "admin.editor.saved");
              }}
            >
              {translate("admin.editor.image.remove")}
            </Button>
          )}
        </Stack>
      )}
      {!editor.readOnly && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
          {translate("admin.editor.image.limits", {
            size: megabytes(MAX_IMAGE_BYTES),
            count: EVENT_IMAGE_QUOTA.count,
            total: megabytes(EVENT_IMAGE_QUOTA.bytes),
          })}
        </Typography>
      )}
      {dialog}
    </Box>
  );
};

/** Tags are rows of `/node-tags` pointing at one configuration. */
const TagsSection = ({ node }: { node: TreeNode }) => {
  const translate = useTranslate();
  const editor = useEditor();
  const headingId = useId();
  const [name, setName] = useState("");
  const [nameFr, setNameFr] = useState("");
  const [editing, setEditing] = useState<NodeTag | null>(null);
  const { confirm, dialog } = useConfirm();
  const tags = editor.catalogue.tags.filter((tag) => tag.nodeConfigurationId === node.configuration.id);
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === "") return;
    const answer = await editor.run(() =>
      editor.dataProvider.create("node-tags", {
        data: {
          eventId: editor.eventId,
          name: name.trim(),
          nameFr: nameFr.trim(),
          nodeConfigurationId: node.configuration.id,
        },
      }),
    );
    if (answer === true) {
      setName("");
      setNameFr("");
    }
  };
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 2 }}>
      <Typography id={headingId} variant="subtitle1" component="h3">
        {translate("admin.editor.tags.title")}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", my: 1 }}>
        {tags.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {translate("admin.editor.tags.none")}
          </Typography>
        )}
        {tags.map((tag) => (
          <Chip
            key={tag.id}
            // The French beside the English, as the ticket office reads it in each language.
            label={tag.nameFr ? `${tag.name} · ${tag.nameFr}` : tag.name}
            // A click opens the tag to change it (its French written later, say); read-only, there is nothing to open.
            onClick={editor.readOnly ? undefined : () => setEditing(tag)}
            onDelete={
              editor.readOnly
                ? undefined
                : async () => {
                    const isConfirmed = await confirm({
                      title: "admin.confirms.removeTag.title",
                      message: "admin.confirms.removeTag.text",
                      messageArgs: { name: tag.name },
                      confirmLabel: "ra.action.delete",
                      isDangerous: true,
                    });
                    if (isConfirmed)
                      await editor.run(() =>
                        editor.dataProvider.delete("node-tags", { id: tag.id, previousData: tag }),
                      );
                  }
            }
          />
        ))}
      </Stack>
      {!editor.readOnly && (
        <Stack
          component="form"
          direction={{ xs: "column", sm: "row" }}
          spacing={1}
          onSubmit={add}
          noValidate
          sx={{ alignItems: { sm: "flex-start" } }}
        >
          <BilingualTextField
            size="small"
            label={translate("admin.editor.tags.name")}
            value={name}
            valueFr={nameFr}
            onChange={setName}
            onChangeFr={setNameFr}
          />
          <Button type="submit" size="small" sx={{ flexShrink: 0, whiteSpace: "nowrap", alignSelf: "flex-start" }}>
            {translate("admin.editor.tags.add")}
          </Button>
        </Stack>
      )}
      {editing && <TagDialog tag={editing} onClose={() => setEditing(null)} />}
      {dialog}
    </Box>
  );
};

/** One tag's name in English and French. */
const TagDialog = ({ tag, onClose }: { tag: NodeTag; onClose: () => void }) => {
  const translate = useTranslate();
  const editor = useEditor();
  const [name, setName] = useState(tag.name);
  const [nameFr, setNameFr] = useState(tag.nameFr ?? "");
  const [error, setError] = useState<string | undefined>();
  const submit = async () => {
    if (name.trim() === "") return setError(translate("ra.validation.required"));
    const answer = await editor.run(
      () =>
        editor.dataProvider.update("node-tags", {
          id: tag.id,
          data: { name: name.trim(), nameFr: nameFr.trim() },
          previousData: tag,
        }),
      "admin.editor.saved",
    );
    if (answer === true) onClose();
    else if (answer) setError(answer.name);
  };
  return (
    <FormDialog
      title={translate("admin.editor.linked.editTitle", { kind: translate("admin.editor.tags.name"), name: tag.name })}
      readOnly={false}
      onClose={onClose}
      onSubmit={submit}
      maxWidth="md"
    >
      <BilingualTextField
        label={translate("admin.editor.tags.name")}
        value={name}
        valueFr={nameFr}
        onChange={setName}
        onChangeFr={setNameFr}
        required
        error={!!error}
        helperText={error}
      />
    </FormDialog>
  );
};

/** The selected element: its fields, then the rules of its configuration. */
export const NodePanel = ({ root, node, price }: { root: TreeNode; node: TreeNode; price: number | undefined }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const editor = useEditor();
  const headingId = useId();
  const configurationId = node.configuration.id;
  const { catalogue } = editor;
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: 2 }}>
      <Typography id={headingId} variant="h6" component="h2">
        {translate("admin.editor.node.heading", {
          title: node.configuration.title || translate("admin.editor.untitled"),
        })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate(`admin.editor.categories.${node.configuration.category}`)}
        {price !== undefined && ` · ${translate("admin.editor.basePrice", { price: formatMoney(price, locale) })}`}
      </Typography>
      {/* A new key after each reload: the form restarts from the saved row. */}
      <ElementForm key={JSON.stringify([node.configuration, node.cart])} node={node} />
      <Divider sx={{ my: 2 }} />
      <LinkedSection
        title="admin.editor.limits.title"
        kind="admin.editor.limits.kind"
        resource="node-limits"
        rows={catalogue.limits}
        configurationId={configurationId}
        describe={(limit) => limit.label || translate("admin.editor.limits.unnamed", { maximum: limit.maximum })}
        detail={(limit) =>
          translate("admin.editor.limits.summary", {
            maximum: limit.maximum,
            reserved: limit.reserved,
            sold: limit.sold,
            remaining: limit.remaining,
          })
        }
        Dialog={LimitDialog}
      />
      <PriceRulesSection root={root} node={node} />
      <LinkedSection
        title="admin.editor.availabilities.title"
        kind="admin.editor.availabilities.kind"
        resource="node-availabilities"
        rows={catalogue.availabilities}
        configurationId={configurationId}
        describe={(availability) => availability.name || translate("admin.editor.availabilities.kind")}
        detail={(availability) => (availability.conditionId ? translate("admin.editor.conditional") : "")}
        Dialog={AvailabilityDialog}
      />
      <LinkedSection
        title="admin.editor.accesses.title"
        kind="admin.editor.accesses.kind"
        resource="node-accesses"
        rows={catalogue.accesses}
        configurationId={configurationId}
        describe={(access) => access.label || translate("admin.editor.accesses.kind")}
        detail={(access) =>
          [
            translate(access.isAccessible ? "admin.editor.accesses.grants" : "admin.editor.accesses.denies"),
            access.conditionId ? translate("admin.editor.conditional") : null,
          ]
            .filter(Boolean)
            .join(" · ")
        }
        Dialog={AccessDialog}
      />
      <TagsSection node={node} />
      <ImageSection node={node} />
      <FormsSection configurationId={configurationId} />
    </Paper>
  );
};

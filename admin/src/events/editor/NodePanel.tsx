import DeleteIcon from "@mui/icons-material/Delete";
import UploadIcon from "@mui/icons-material/Upload";
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Divider,
  FormControlLabel,
  FormGroup,
  Paper,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { EVENT_IMAGE_QUOTA, MAX_IMAGE_BYTES, megabytes } from "@ticketing/shared/images";
import { formatMoney } from "@ticketing/shared/money";
import { type FormEvent, useContext, useId, useState } from "react";
import { DataProviderContext, useLocaleState, useNotify, useTranslate } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";
import { useConfirm } from "../../widgets/PromptDialog.tsx";
import { useEditor } from "./EditorContext.tsx";
import { FormsSection } from "./FormsSection.tsx";
import { LinkedSection } from "./LinkedSection.tsx";
import { PriceRulesSection } from "./PriceRulesSection.tsx";
import { AccessDialog, AvailabilityDialog, LimitDialog } from "./RuleDialogs.tsx";
import { isGroupCategory, type TreeNode } from "./tree.ts";

const DISPLAY_FLAGS = [
  "isTitleDisplayable",
  "isDescriptionDisplayable",
  "isImageDisplayable",
  "isTagsDisplayable",
] as const;

/** Only the fields that differ from the row (PUT takes the fields to change). */
const changes = <T extends object>(row: T, values: Partial<T>) =>
  Object.fromEntries(Object.entries(values).filter(([key, value]) => row[key as keyof T] !== value));

/** The element's own fields: configuration (title, texts, flags, Lausanne tax, required) and cart (weight, range). */
const ElementForm = ({ node }: { node: TreeNode }) => {
  const translate = useTranslate();
  const editor = useEditor();
  const { configuration, cart } = node;
  const isGroup = isGroupCategory(configuration.category);
  const [values, setValues] = useState(() => ({
    title: configuration.title ?? "",
    description: configuration.description ?? "",
    isTitleDisplayable: configuration.isTitleDisplayable ?? true,
    isDescriptionDisplayable: configuration.isDescriptionDisplayable ?? true,
    isImageDisplayable: configuration.isImageDisplayable ?? true,
    isTagsDisplayable: configuration.isTagsDisplayable ?? false,
    isSubjectToLausanneTax: configuration.isSubjectToLausanneTax ?? false,
    isRequired: configuration.isRequired ?? false,
  }));
  const [cartValues, setCartValues] = useState(() => ({
    weight: String(cart?.weight ?? 1),
    rangeMin: String(cart?.rangeMin ?? 0),
    rangeMax: cart?.rangeMax === null || cart?.rangeMax === undefined ? "" : String(cart.rangeMax),
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isPending, setPending] = useState(false);
  const disabled = editor.readOnly;
  const isRoot = node.parentId === null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const whole = /^\d+$/;
    const problems: Record<string, string> = {};
    for (const key of ["weight", "rangeMin"] as const)
      if (!whole.test(cartValues[key].trim())) problems[key] = translate("admin.editor.node.wholeNumber");
    if (cartValues.rangeMax.trim() !== "" && !whole.test(cartValues.rangeMax.trim()))
      problems.rangeMax = translate("admin.editor.node.wholeNumber");
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const configurationChanges = changes(configuration, { ...values, title: values.title.trim() });
    const cartChanges = cart
      ? changes(cart, {
          weight: Number(cartValues.weight),
          rangeMin: Number(cartValues.rangeMin),
          rangeMax: cartValues.rangeMax.trim() === "" ? null : Number(cartValues.rangeMax),
        })
      : {};
    setPending(true);
    const answer = await editor.run(async () => {
      if (Object.keys(configurationChanges).length > 0)
        await editor.dataProvider.update("node-configurations", {
          id: configuration.id,
          data: configurationChanges,
          previousData: { id: configuration.id },
        });
      if (cart && Object.keys(cartChanges).length > 0)
        await editor.dataProvider.update("node-cart-configurations", {
          id: cart.id,
          data: cartChanges,
          previousData: { id: cart.id },
        });
    }, "admin.editor.saved");
    setPending(false);
    // "Chosen range cannot be fulfilled" comes as field_errors.range_min: shown under the range.
    if (answer !== true && answer !== false) setErrors(answer);
  };

  const flag = (key: keyof typeof values & `is${string}`, label: string) => (
    <FormControlLabel
      key={key}
      control={
        <Checkbox
          checked={values[key] as boolean}
          disabled={disabled}
          onChange={(e) => setValues((current) => ({ ...current, [key]: e.target.checked }))}
        />
      }
      label={translate(label)}
    />
  );
  const cartField = (key: keyof typeof cartValues, helper?: string) => (
    <TextField
      size="small"
      label={translate(`admin.editor.node.${key}`)}
      value={cartValues[key]}
      disabled={disabled}
      onChange={(e) => setCartValues((current) => ({ ...current, [key]: e.target.value }))}
      error={!!errors[key]}
      helperText={errors[key] ?? helper}
      slotProps={{ htmlInput: { inputMode: "numeric" } }}
      sx={{ width: { sm: 160 } }}
    />
  );
  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Stack spacing={2}>
        <TextField
          label={translate("admin.editor.node.title")}
          value={values.title}
          disabled={disabled}
          onChange={(e) => setValues((current) => ({ ...current, title: e.target.value }))}
          error={!!errors.title}
          helperText={errors.title}
        />
        <TextField
          label={translate("admin.editor.node.description")}
          value={values.description}
          multiline
          minRows={2}
          disabled={disabled}
          onChange={(e) => setValues((current) => ({ ...current, description: e.target.value }))}
        />
        <FormGroup row aria-label={translate("admin.editor.node.display")}>
          {DISPLAY_FLAGS.map((key) => flag(key, `admin.editor.node.${key}`))}
        </FormGroup>
        <FormGroup row>
          {flag("isSubjectToLausanneTax", "admin.editor.node.isSubjectToLausanneTax")}
          {!isRoot && flag("isRequired", "admin.editor.node.isRequired")}
        </FormGroup>
        {configuration.isSubjectToLausanneTax && !values.isSubjectToLausanneTax && node.children.length > 0 && (
          <Alert severity="info">{translate("admin.editor.node.lausanneTaxChildren")}</Alert>
        )}
        {cart && (
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            {!isRoot && cartField("weight")}
            {(isGroup || configuration.category === "article") && (
              <>
                {cartField("rangeMin", translate("admin.editor.node.rangeHelp"))}
                {cartField("rangeMax")}
              </>
            )}
          </Stack>
        )}
        {!disabled && (
          <Box>
            <Button type="submit" variant="contained" disabled={isPending}>
              {translate("admin.editor.node.save")}
            </Button>
          </Box>
        )}
      </Stack>
    </Box>
  );
};

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
          <Button component="label" htmlFor={inputId} size="small" startIcon={<UploadIcon />}>
            {translate("admin.editor.image.upload")}
            <input
              id={inputId}
              hidden
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              onChange={async (event) => {
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
            />
          </Button>
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
  const { confirm, dialog } = useConfirm();
  const tags = editor.catalogue.tags.filter((tag) => tag.nodeConfigurationId === node.configuration.id);
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === "") return;
    const answer = await editor.run(() =>
      editor.dataProvider.create("node-tags", {
        data: { eventId: editor.eventId, name: name.trim(), nodeConfigurationId: node.configuration.id },
      }),
    );
    if (answer === true) setName("");
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
            label={tag.name}
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
        <Stack component="form" direction="row" spacing={1} onSubmit={add} noValidate>
          <TextField
            size="small"
            label={translate("admin.editor.tags.name")}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <Button type="submit" size="small" sx={{ flexShrink: 0, whiteSpace: "nowrap" }}>
            {translate("admin.editor.tags.add")}
          </Button>
        </Stack>
      )}
      {dialog}
    </Box>
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

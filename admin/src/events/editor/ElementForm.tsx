// The selected element's own fields (its configuration and its cart configuration), saved with one button.

import { Alert, Box, Button, Checkbox, FormControlLabel, FormGroup, Stack, TextField } from "@mui/material";
import { MAX_TICKETS_PER_BUYER } from "@ticketing/shared/constants";
import { type FormEvent, useState } from "react";
import { useTranslate } from "react-admin";
import { BilingualTextField } from "../../fields/BilingualTextInput.tsx";
import { NumberField } from "../../widgets/NumberInput.tsx";
import { useEditor } from "./EditorContext.tsx";
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

/**
 * The element's own fields: configuration (title, texts, flags, Lausanne tax, required; an article's most per buyer)
 * and cart (weight, range).
 */
export const ElementForm = ({ node }: { node: TreeNode }) => {
  const translate = useTranslate();
  const editor = useEditor();
  const { configuration, cart } = node;
  const isGroup = isGroupCategory(configuration.category);
  const isArticle = configuration.category === "article";
  const [values, setValues] = useState(() => ({
    title: configuration.title ?? "",
    titleFr: configuration.titleFr ?? "",
    description: configuration.description ?? "",
    descriptionFr: configuration.descriptionFr ?? "",
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
  // Empty: no cap (docs/decisions/0036); the number input clamps what is typed to 1..MAX_TICKETS_PER_BUYER.
  const [maxPerBuyer, setMaxPerBuyer] = useState<number | null>(configuration.maxPerBuyer ?? null);
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
    const configurationChanges = changes(configuration, {
      ...values,
      title: values.title.trim(),
      titleFr: values.titleFr.trim(),
      ...(isArticle ? { maxPerBuyer } : {}),
    });
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
        <BilingualTextField
          label={translate("admin.editor.node.title")}
          value={values.title}
          valueFr={values.titleFr}
          disabled={disabled}
          onChange={(title) => setValues((current) => ({ ...current, title }))}
          onChangeFr={(titleFr) => setValues((current) => ({ ...current, titleFr }))}
          error={!!errors.title}
          helperText={errors.title}
        />
        <BilingualTextField
          label={translate("admin.editor.node.description")}
          value={values.description}
          valueFr={values.descriptionFr}
          multiline
          minRows={2}
          disabled={disabled}
          onChange={(description) => setValues((current) => ({ ...current, description }))}
          onChangeFr={(descriptionFr) => setValues((current) => ({ ...current, descriptionFr }))}
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
            {(isGroup || isArticle) && (
              <>
                {cartField("rangeMin", translate("admin.editor.node.rangeHelp"))}
                {cartField("rangeMax")}
              </>
            )}
          </Stack>
        )}
        {isArticle && (
          <Box sx={{ maxWidth: 320 }}>
            <NumberField
              label="admin.editor.node.maxPerBuyer"
              name="maxPerBuyer"
              value={maxPerBuyer}
              onChange={setMaxPerBuyer}
              onInput={setMaxPerBuyer}
              min={1}
              max={MAX_TICKETS_PER_BUYER}
              isValidationEnabled
              disabled={disabled}
              outsideError={errors.maxPerBuyer}
              helperText={translate("admin.editor.node.maxPerBuyerHelp")}
            />
          </Box>
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

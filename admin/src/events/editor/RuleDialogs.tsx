import DeleteIcon from "@mui/icons-material/Delete";
import { Button, Checkbox, FormControlLabel, MenuItem, TextField, Typography } from "@mui/material";
import {
  PRICE_INTERFACE_OPERATORS,
  type PriceInterfaceOperator,
  priceInterfaceOperatorOf,
  priceRuleModeOf,
  priceRuleValueFromInput,
  priceRuleValueToInput,
} from "@ticketing/shared/pricing";
import type { NodeAccess, NodeAvailability, NodeLimit, NodePriceRule } from "@ticketing/shared/schemas/catalogue";
import { type ReactNode, useState } from "react";
import { useTranslate } from "react-admin";
import { BilingualTextField } from "../../fields/BilingualTextInput.tsx";
import { DateTimePickerField } from "../../fields/DateTimeInput.tsx";
import { validateDateTime } from "../../fields/dateTime.ts";
import { ConditionBuilder, dropImplicitCondition, saveCondition } from "./ConditionBuilder.tsx";
import { type ConditionDraft, draftFromCondition, isDraftValid } from "./conditionDraft.ts";
import { ConfirmDialog, FormDialog } from "./Dialogs.tsx";
import { type Linked, useEditor } from "./EditorContext.tsx";
import type { RuleDialogProps } from "./LinkedSection.tsx";
import { nextOrder } from "./tree.ts";

type Errors = Record<string, string>;

/**
 * Create (linked to the configuration) or update one rule row, its condition first when it has one. Returns
 * whether the dialog may close; field errors land in `setErrors`.
 */
function useRuleWriter<R extends Linked>(resource: string, props: RuleDialogProps<R>, setErrors: (e: Errors) => void) {
  const editor = useEditor();
  return async (data: Record<string, unknown>, condition?: { draft: ConditionDraft; name: string }) => {
    const { row, configurationId } = props;
    const answer = await editor.run(async () => {
      let conditionId: number | null | undefined;
      if (condition) conditionId = await saveCondition(editor, row?.conditionId, condition.draft, condition.name);
      const body = condition ? { ...data, conditionId } : data;
      if (row) await editor.dataProvider.update(resource, { id: row.id, data: body, previousData: row });
      else
        await editor.dataProvider.create(resource, {
          data: { eventId: editor.eventId, ...body, nodeConfigurationIds: [configurationId] },
        });
      if (condition && row) await dropImplicitCondition(editor, row.conditionId, conditionId ?? null);
    }, "admin.editor.saved");
    if (answer === true) props.onClose();
    else if (answer) setErrors(answer);
  };
}

/** Deletes the row itself (from every element it is linked to), after a confirmation. */
function DeleteRowButton({
  resource,
  row,
  name,
  onDeleted,
}: {
  resource: string;
  row: Linked;
  name: string;
  onDeleted: () => void;
}) {
  const translate = useTranslate();
  const editor = useEditor();
  const [isAsking, setAsking] = useState(false);
  return (
    <>
      <Button color="error" startIcon={<DeleteIcon />} onClick={() => setAsking(true)}>
        {translate("ra.action.delete")}
      </Button>
      {isAsking && (
        <ConfirmDialog
          title={translate("admin.editor.linked.deleteTitle", { name })}
          message={translate("admin.editor.linked.deleteMessage", { count: row.nodeConfigurationIds.length })}
          confirmLabel={translate("ra.action.delete")}
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            const done = await editor.run(async () => {
              await editor.dataProvider.delete(resource, { id: row.id, previousData: row });
              await dropImplicitCondition(editor, row.conditionId, null);
            }, "admin.editor.deleted");
            if (done === true) onDeleted();
          }}
        />
      )}
    </>
  );
}

function RuleDialog<R extends Linked>({
  resource,
  kind,
  props,
  name,
  onSubmit,
  children,
}: {
  resource: string;
  kind: string;
  props: RuleDialogProps<R>;
  name: string;
  onSubmit: () => Promise<unknown>;
  children: ReactNode;
}) {
  const translate = useTranslate();
  const { readOnly } = useEditor();
  const { row, onClose } = props;
  return (
    <FormDialog
      title={translate(row ? "admin.editor.linked.editTitle" : "admin.editor.linked.createTitle", {
        kind: translate(kind),
        name,
      })}
      readOnly={readOnly}
      onClose={onClose}
      onSubmit={onSubmit}
      maxWidth="md"
      extraActions={
        row && !readOnly ? <DeleteRowButton resource={resource} row={row} name={name} onDeleted={onClose} /> : undefined
      }
    >
      {children}
    </FormDialog>
  );
}

/** Stock: a shared quota (label, maximum); reserved, sold and remaining come from the API. */
export const LimitDialog = (props: RuleDialogProps<NodeLimit>) => {
  const translate = useTranslate();
  const { readOnly, catalogue } = useEditor();
  const { row } = props;
  const [label, setLabel] = useState(row?.label ?? "");
  const [labelFr, setLabelFr] = useState(row?.labelFr ?? "");
  const [maximum, setMaximum] = useState(row ? String(row.maximum) : "");
  const [errors, setErrors] = useState<Errors>({});
  const write = useRuleWriter("node-limits", props, setErrors);
  const submit = async () => {
    if (!/^\d+$/.test(maximum.trim())) return setErrors({ maximum: translate("admin.validation.stock") });
    const data = { label: label.trim(), labelFr: labelFr.trim(), maximum: Number(maximum.trim()) };
    await write(row ? data : { ...data, order: nextOrder(catalogue.limits) });
  };
  return (
    <RuleDialog resource="node-limits" kind="admin.editor.limits.kind" props={props} name={label} onSubmit={submit}>
      <BilingualTextField
        label={translate("admin.editor.limits.label")}
        value={label}
        valueFr={labelFr}
        onChange={setLabel}
        onChangeFr={setLabelFr}
        disabled={readOnly}
        error={!!errors.label}
        helperText={errors.label}
      />
      <TextField
        label={translate("admin.editor.limits.maximum")}
        value={maximum}
        onChange={(e) => setMaximum(e.target.value)}
        disabled={readOnly}
        required
        error={!!errors.maximum}
        helperText={errors.maximum}
        slotProps={{ htmlInput: { inputMode: "numeric" } }}
      />
      {row && (
        <Typography variant="body2">
          {translate("admin.editor.limits.figures", {
            reserved: row.reserved,
            sold: row.sold,
            remaining: row.remaining,
          })}
        </Typography>
      )}
    </RuleDialog>
  );
};

/** docs/specification.md §9's price operators ↔ stored modes, values as typed (CHF, %, factor) ↔ stored integers. */
export const PriceRuleDialog = (props: RuleDialogProps<NodePriceRule>) => {
  const translate = useTranslate();
  const { readOnly, catalogue } = useEditor();
  const { row } = props;
  const [label, setLabel] = useState(row?.label ?? "");
  const [labelFr, setLabelFr] = useState(row?.labelFr ?? "");
  const [operator, setOperator] = useState<PriceInterfaceOperator>(row ? priceInterfaceOperatorOf(row.mode) : "equals");
  const [value, setValue] = useState(row ? priceRuleValueToInput(row.mode, row.value) : "");
  const [shouldPropagate, setPropagate] = useState(row?.shouldPropagate ?? false);
  const [condition, setCondition] = useState(() =>
    draftFromCondition(catalogue.conditions.find((c) => c.id === row?.conditionId)),
  );
  const [errors, setErrors] = useState<Errors>({});
  const [isSubmitted, setSubmitted] = useState(false);
  const write = useRuleWriter("node-price-rules", props, setErrors);
  const submit = async () => {
    setSubmitted(true);
    const mode = priceRuleModeOf(operator);
    const stored = priceRuleValueFromInput(mode, value.trim());
    if (stored === null) return setErrors({ value: translate("admin.editor.priceRules.invalidValue") });
    if (!isDraftValid(condition)) return;
    const data = { label: label.trim(), labelFr: labelFr.trim(), mode, value: stored, shouldPropagate };
    await write(row ? data : { ...data, order: nextOrder(catalogue.priceRules) }, {
      draft: condition,
      name: label.trim(),
    });
  };
  return (
    <RuleDialog
      resource="node-price-rules"
      kind="admin.editor.priceRules.kind"
      props={props}
      name={label}
      onSubmit={submit}
    >
      <BilingualTextField
        label={translate("admin.editor.priceRules.label")}
        value={label}
        valueFr={labelFr}
        onChange={setLabel}
        onChangeFr={setLabelFr}
        disabled={readOnly}
      />
      <TextField
        select
        label={translate("admin.editor.priceRules.operator")}
        value={operator}
        onChange={(e) => setOperator(e.target.value as PriceInterfaceOperator)}
        disabled={readOnly}
      >
        {PRICE_INTERFACE_OPERATORS.map((name) => (
          <MenuItem key={name} value={name}>
            {translate(`admin.editor.priceRules.operators.${name}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label={translate(`admin.editor.priceRules.valueOf.${operator}`)}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        disabled={readOnly}
        required
        error={!!errors.value}
        helperText={errors.value}
        slotProps={{ htmlInput: { inputMode: "decimal" } }}
      />
      <FormControlLabel
        control={
          <Checkbox checked={shouldPropagate} onChange={(e) => setPropagate(e.target.checked)} disabled={readOnly} />
        }
        label={translate("admin.editor.priceRules.shouldPropagate")}
      />
      <ConditionBuilder value={condition} onChange={setCondition} showErrors={isSubmitted} readOnly={readOnly} />
    </RuleDialog>
  );
};

/** A time window (either bound open) and an optional condition. */
export const AvailabilityDialog = (props: RuleDialogProps<NodeAvailability>) => {
  const translate = useTranslate();
  const { readOnly, catalogue } = useEditor();
  const { row } = props;
  const [name, setName] = useState(row?.name ?? "");
  const [nameFr, setNameFr] = useState(row?.nameFr ?? "");
  const [startsAt, setStartsAt] = useState<unknown>(row?.startsAt ?? null);
  const [endsAt, setEndsAt] = useState<unknown>(row?.endsAt ?? null);
  const [condition, setCondition] = useState(() =>
    draftFromCondition(catalogue.conditions.find((c) => c.id === row?.conditionId)),
  );
  const [errors, setErrors] = useState<Errors>({});
  const [isSubmitted, setSubmitted] = useState(false);
  const write = useRuleWriter("node-availabilities", props, setErrors);
  const submit = async () => {
    setSubmitted(true);
    // A bound still being typed is refused here, before anything is written.
    const typing = Object.entries({ startsAt, endsAt }).filter(([, value]) => validateDateTime(value));
    if (typing.length > 0) {
      setErrors(Object.fromEntries(typing.map(([field]) => [field, translate("admin.dateTimeInput.invalid")])));
      return;
    }
    if (!isDraftValid(condition)) return;
    await write(
      {
        name: name.trim(),
        nameFr: nameFr.trim(),
        startsAt: startsAt as string | null,
        endsAt: endsAt as string | null,
      },
      { draft: condition, name: name.trim() },
    );
  };
  return (
    <RuleDialog
      resource="node-availabilities"
      kind="admin.editor.availabilities.kind"
      props={props}
      name={name}
      onSubmit={submit}
    >
      <BilingualTextField
        label={translate("admin.editor.availabilities.name")}
        value={name}
        valueFr={nameFr}
        onChange={setName}
        onChangeFr={setNameFr}
        disabled={readOnly}
      />
      <DateTimePickerField
        label={translate("admin.editor.availabilities.startsAt")}
        value={startsAt}
        onChange={setStartsAt}
        disabled={readOnly}
        error={!!errors.startsAt}
        helperText={errors.startsAt}
      />
      <DateTimePickerField
        label={translate("admin.editor.availabilities.endsAt")}
        value={endsAt}
        onChange={setEndsAt}
        disabled={readOnly}
        error={!!errors.endsAt}
        helperText={errors.endsAt}
      />
      <ConditionBuilder value={condition} onChange={setCondition} showErrors={isSubmitted} readOnly={readOnly} />
    </RuleDialog>
  );
};

/** An access rule: grants (accessible) or denies the element to visitors meeting the condition. */
export const AccessDialog = (props: RuleDialogProps<NodeAccess>) => {
  const translate = useTranslate();
  const { readOnly, catalogue } = useEditor();
  const { row } = props;
  const [label, setLabel] = useState(row?.label ?? "");
  const [labelFr, setLabelFr] = useState(row?.labelFr ?? "");
  const [isAccessible, setAccessible] = useState(row?.isAccessible ?? true);
  const [condition, setCondition] = useState(() =>
    draftFromCondition(catalogue.conditions.find((c) => c.id === row?.conditionId)),
  );
  const [, setErrors] = useState<Errors>({});
  const [isSubmitted, setSubmitted] = useState(false);
  const write = useRuleWriter("node-accesses", props, setErrors);
  const submit = async () => {
    setSubmitted(true);
    if (!isDraftValid(condition)) return;
    await write(
      { label: label.trim(), labelFr: labelFr.trim(), isAccessible },
      { draft: condition, name: label.trim() },
    );
  };
  return (
    <RuleDialog resource="node-accesses" kind="admin.editor.accesses.kind" props={props} name={label} onSubmit={submit}>
      <BilingualTextField
        label={translate("admin.editor.accesses.label")}
        value={label}
        valueFr={labelFr}
        onChange={setLabel}
        onChangeFr={setLabelFr}
        disabled={readOnly}
      />
      <FormControlLabel
        control={
          <Checkbox checked={isAccessible} onChange={(e) => setAccessible(e.target.checked)} disabled={readOnly} />
        }
        label={translate("admin.editor.accesses.isAccessible")}
      />
      <ConditionBuilder value={condition} onChange={setCondition} showErrors={isSubmitted} readOnly={readOnly} />
    </RuleDialog>
  );
};

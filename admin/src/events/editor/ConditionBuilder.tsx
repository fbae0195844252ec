import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/Delete";
import {
  Box,
  Button,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from "@mui/material";
import { CONDITION_INTERFACE_OPERATORS } from "@ticketing/shared/conditions";
import { LOGICAL_OPERATORS, STATEMENT_OPERANDS, STATEMENT_SCOPES } from "@ticketing/shared/constants";
import { useId } from "react";
import { useTranslate } from "react-admin";
import {
  type ConditionDraft,
  newStatementDraft,
  type StatementDraft,
  statementProblem,
  statementWrites,
} from "./conditionDraft.ts";
import type { EditorContextValue } from "./EditorContext.tsx";

/**
 * docs/specification.md §9's condition builder: statements
 * "<promotion code | user email> <is | is not> <belongs to | contains (domain) | equals> <value>", joined by and/or.
 * Operators stored without an interface name stay as they are.
 */
export const ConditionBuilder = ({
  value,
  onChange,
  showErrors,
  readOnly,
}: {
  value: ConditionDraft;
  onChange: (draft: ConditionDraft) => void;
  showErrors: boolean;
  readOnly: boolean;
}) => {
  const translate = useTranslate();
  const headingId = useId();
  const setStatement = (index: number, change: Partial<StatementDraft>) =>
    onChange({
      ...value,
      statements: value.statements.map((statement, i) => (i === index ? { ...statement, ...change } : statement)),
    });
  return (
    <Box
      component="fieldset"
      aria-labelledby={headingId}
      sx={{ border: 1, borderColor: "divider", borderRadius: 1, p: 1.5 }}
    >
      <Typography id={headingId} variant="subtitle2" component="legend" sx={{ px: 0.5 }}>
        {translate("admin.editor.condition.title")}
      </Typography>
      {value.statements.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {translate("admin.editor.condition.none")}
        </Typography>
      )}
      {value.statements.length > 1 && (
        <ToggleButtonGroup
          size="small"
          exclusive
          value={value.logicalOperator}
          disabled={readOnly}
          onChange={(_event, logicalOperator) => logicalOperator && onChange({ ...value, logicalOperator })}
          aria-label={translate("admin.editor.condition.logicalOperator")}
          sx={{ mb: 1 }}
        >
          {LOGICAL_OPERATORS.map((operator) => (
            <ToggleButton key={operator} value={operator}>
              {translate(`admin.editor.condition.logical.${operator}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      )}
      {value.statements.map((statement, index) => {
        const problem = showErrors ? statementProblem(statement) : null;
        const number = index + 1;
        const isNamed = (CONDITION_INTERFACE_OPERATORS as readonly string[]).includes(statement.operator);
        return (
          <Stack
            // biome-ignore lint/suspicious/noArrayIndexKey: statements have no id before they are saved
            key={index}
            direction={{ xs: "column", sm: "row" }}
            spacing={1}
            sx={{ mb: 1, alignItems: "flex-start" }}
          >
            <TextField
              select
              size="small"
              label={translate("admin.editor.condition.operand", { number })}
              value={statement.operand}
              disabled={readOnly}
              onChange={(event) => setStatement(index, { operand: event.target.value as StatementDraft["operand"] })}
              sx={{ minWidth: 160 }}
            >
              {STATEMENT_OPERANDS.map((operand) => (
                <MenuItem key={operand} value={operand}>
                  {translate(`admin.editor.condition.operands.${operand}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={translate("admin.editor.condition.scope", { number })}
              value={statement.scope}
              disabled={readOnly}
              onChange={(event) => setStatement(index, { scope: event.target.value as StatementDraft["scope"] })}
              sx={{ minWidth: 90 }}
            >
              {STATEMENT_SCOPES.map((scope) => (
                <MenuItem key={scope} value={scope}>
                  {translate(`admin.editor.condition.scopes.${scope}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={translate("admin.editor.condition.operator", { number })}
              value={statement.operator}
              disabled={readOnly}
              onChange={(event) => setStatement(index, { operator: event.target.value as StatementDraft["operator"] })}
              sx={{ minWidth: 170 }}
            >
              {CONDITION_INTERFACE_OPERATORS.map((operator) => (
                <MenuItem key={operator} value={operator}>
                  {translate(`admin.editor.condition.operators.${operator}`)}
                </MenuItem>
              ))}
              {!isNamed && <MenuItem value={statement.operator}>{statement.operator}</MenuItem>}
            </TextField>
            <TextField
              size="small"
              label={translate("admin.editor.condition.value", { number })}
              value={statement.value}
              disabled={readOnly}
              onChange={(event) => setStatement(index, { value: event.target.value })}
              error={problem !== null}
              helperText={
                problem
                  ? translate(`admin.editor.condition.problems.${problem}`)
                  : translate(`admin.editor.condition.hints.${statement.operator}`, { _: " " })
              }
              sx={{ flex: 1, minWidth: 140 }}
            />
            {!readOnly && (
              <IconButton
                aria-label={translate("admin.editor.condition.remove", { number })}
                onClick={() => onChange({ ...value, statements: value.statements.filter((_, i) => i !== index) })}
              >
                <DeleteIcon />
              </IconButton>
            )}
          </Stack>
        );
      })}
      {!readOnly && (
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => onChange({ ...value, statements: [...value.statements, newStatementDraft()] })}
        >
          {translate("admin.editor.condition.add")}
        </Button>
      )}
    </Box>
  );
};

/**
 * Saves a rule's condition and answers the `condition_id` to store on the rule: null when the draft has no
 * statement (the rule's own implicit condition is then deleted), the same id when it existed.
 */
export async function saveCondition(
  editor: Pick<EditorContextValue, "dataProvider" | "eventId" | "catalogue">,
  conditionId: number | null | undefined,
  draft: ConditionDraft,
  name: string,
): Promise<number | null> {
  const { dataProvider, eventId, catalogue } = editor;
  const existing = conditionId ? catalogue.conditions.find((condition) => condition.id === conditionId) : undefined;
  if (draft.statements.length === 0) return null;
  let id = existing?.id;
  if (id === undefined) {
    const { data } = await dataProvider.create("conditions", {
      data: { eventId, name, logicalOperator: draft.logicalOperator, isImplicit: true },
    });
    id = data.id as number;
  } else if (existing?.logicalOperator !== draft.logicalOperator) {
    await dataProvider.update("conditions", {
      id,
      data: { logicalOperator: draft.logicalOperator },
      previousData: { id },
    });
  }
  const conditionKey = id;
  const writes = statementWrites(existing?.statements ?? [], draft, conditionKey);
  for (const statementId of writes.delete)
    await dataProvider.delete("statements", { id: statementId, previousData: { id: statementId } });
  for (const { id: statementId, data } of writes.update)
    await dataProvider.update("statements", { id: statementId, data, previousData: { id: statementId } });
  for (const data of writes.create) await dataProvider.create("statements", { data: { eventId, ...data } });
  return conditionKey;
}

/** After the rule no longer points at it: an implicit condition belongs to that rule alone. */
export async function dropImplicitCondition(
  editor: Pick<EditorContextValue, "dataProvider" | "catalogue">,
  previousId: number | null | undefined,
  nextId: number | null,
): Promise<void> {
  if (!previousId || previousId === nextId) return;
  const previous = editor.catalogue.conditions.find((condition) => condition.id === previousId);
  if (previous?.isImplicit)
    await editor.dataProvider.delete("conditions", { id: previousId, previousData: { id: previousId } });
}

// An element's price rules as they are applied (docs/decisions/0032): its own and those propagated from the
// elements above, in order, the price after each step, a warning on a rule that changes no buyer's price because
// of where it stands (the rule itself is shared/price-steps'), and moves up and down kept on the server.
import ArrowDownwardIcon from "@mui/icons-material/ArrowDownward";
import ArrowUpwardIcon from "@mui/icons-material/ArrowUpward";
import EditIcon from "@mui/icons-material/Edit";
import LinkOffIcon from "@mui/icons-material/LinkOff";
import { Alert, Box, IconButton, List, ListItem, Stack, Typography } from "@mui/material";
import type { PriceRuleDirection, PriceRuleMode } from "@ticketing/shared/constants";
import { formatMoney } from "@ticketing/shared/money";
import { basePriceOf, type NoEffect, type PriceStep } from "@ticketing/shared/price-steps";
import { priceRuleValueToInput } from "@ticketing/shared/pricing";
import type { NodePriceRule } from "@ticketing/shared/schemas/catalogue";
import { useMemo } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { useEditor } from "./EditorContext.tsx";
import { LinkedSection } from "./LinkedSection.tsx";
import { PriceRuleDialog } from "./RuleDialogs.tsx";
import { findNode, isPriced, priceStepsBelow, type TreeNode } from "./tree.ts";

/** "Add CHF 5.00", "Subtract 12,5 %", "Multiply by 1.5": what a rule does, in the editor's words. */
function useOperation() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (rule: Pick<NodePriceRule, "mode" | "value">) => {
    const isAmount = rule.mode === "set" || rule.mode === "plus" || rule.mode === "minus";
    const number = priceRuleValueToInput(rule.mode, rule.value);
    const value = isAmount ? formatMoney(rule.value, locale) : locale === "fr" ? number.replace(".", ",") : number;
    return translate(`admin.editor.priceRules.operations.${rule.mode satisfies PriceRuleMode}`, { value });
  };
}

/** A warning about one priced element (the selected one, or one below it) on which a rule has no effect. */
interface Warning {
  node: TreeNode;
  noEffect: NoEffect<NodePriceRule>;
}

/** The price rules section of the side panel: create, share, edit, remove, and the fold with its moves. */
export const PriceRulesSection = ({ root, node }: { root: TreeNode; node: TreeNode }) => {
  const { catalogue } = useEditor();
  const operation = useOperation();
  const configurationId = node.configuration.id;
  return (
    <LinkedSection
      title="admin.editor.priceRules.title"
      kind="admin.editor.priceRules.kind"
      resource="node-price-rules"
      rows={catalogue.priceRules}
      configurationId={configurationId}
      describe={(rule) => rule.label || operation(rule)}
      Dialog={PriceRuleDialog}
      renderList={({ headingId, edit, unlink }) => (
        <PriceSteps root={root} node={node} headingId={headingId} onEdit={edit} onUnlink={unlink} />
      )}
    />
  );
};

const PriceSteps = ({
  root,
  node,
  headingId,
  onEdit,
  onUnlink,
}: {
  root: TreeNode;
  node: TreeNode;
  headingId: string;
  onEdit: (rule: NodePriceRule) => void;
  onUnlink: (rule: NodePriceRule) => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const editor = useEditor();
  const operation = useOperation();
  const rules = editor.catalogue.priceRules;
  const below = useMemo(() => priceStepsBelow(root, node, rules), [root, node, rules]);
  const steps = below[0]?.steps ?? [];
  const isElementPriced = isPriced(node.configuration.category);
  // Where each rule has no effect: on this element, then on the priced elements below it.
  const warnings = new Map<number, Warning[]>();
  for (const element of below)
    if (isPriced(element.node.configuration.category))
      for (const step of element.steps)
        if (step.noEffect)
          warnings.set(step.rule.id, [
            ...(warnings.get(step.rule.id) ?? []),
            { node: element.node, noEffect: step.noEffect },
          ]);
  if (steps.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate("admin.editor.linked.none")}
      </Typography>
    );
  const nameOf = (rule: NodePriceRule) => rule.label || operation(rule);
  const titleOf = (element: TreeNode) => element.configuration.title || translate("admin.editor.untitled");
  const move = (rule: NodePriceRule, direction: PriceRuleDirection) =>
    editor.run(
      () => editor.dataProvider.movePriceRule(rule.id, { nodeId: node.id, direction }),
      "admin.editor.priceRules.moved",
    );
  const warningText = ({ node: element, noEffect }: Warning) => {
    const on = element.id === node.id ? "" : "On";
    return noEffect.reason === "overridden"
      ? translate(`admin.editor.priceRules.noEffect.overridden${on}`, {
          by: nameOf(noEffect.by),
          element: titleOf(element),
        })
      : translate(`admin.editor.priceRules.noEffect.zeroPrice${on}`, {
          zero: formatMoney(0, locale),
          element: titleOf(element),
        });
  };
  return (
    <>
      <Typography variant="body2" color="text.secondary">
        {translate(isElementPriced ? "admin.editor.priceRules.orderHelp" : "admin.editor.priceRules.orderHelpGroup", {
          zero: formatMoney(0, locale),
        })}
      </Typography>
      <List dense aria-labelledby={headingId} component="ol" sx={{ listStyle: "none", p: 0 }}>
        {steps.map((step: PriceStep<NodePriceRule>, index) => {
          const { rule } = step;
          const name = nameOf(rule);
          const from = step.from === null ? null : findNode(root, step.from);
          const details = [
            rule.label ? operation(rule) : null,
            from ? translate("admin.editor.priceRules.inheritedFrom", { title: titleOf(from) }) : null,
            rule.conditionId !== null ? translate("admin.editor.priceRules.onlyWhenCondition") : null,
            rule.nodeConfigurationIds.length > 1
              ? translate("admin.editor.linked.shared", { count: rule.nodeConfigurationIds.length })
              : null,
          ].filter(Boolean);
          return (
            <ListItem key={rule.id} divider sx={{ display: "block", px: 0 }}>
              {/* On a narrow panel the figure and the buttons wrap under the rule's name. */}
              <Stack direction="row" sx={{ alignItems: "flex-start", flexWrap: "wrap", columnGap: 1 }}>
                <Typography variant="body2" sx={{ minWidth: "1.5em", pt: 0.25 }} aria-hidden>
                  {index + 1}.
                </Typography>
                <Box sx={{ flex: "1 1 10rem", minWidth: 0 }}>
                  <Typography variant="body2">{name}</Typography>
                  {details.length > 0 && (
                    <Typography variant="body2" color="text.secondary">
                      {details.join(" · ")}
                    </Typography>
                  )}
                </Box>
                {isElementPriced && step.priceAfter !== null && (
                  <Typography
                    variant="body2"
                    sx={{ whiteSpace: "nowrap", pt: 0.25 }}
                    aria-label={translate("admin.editor.priceRules.priceAfterNamed", {
                      name,
                      price: formatMoney(step.priceAfter, locale),
                    })}
                  >
                    → {formatMoney(step.priceAfter, locale)}
                  </Typography>
                )}
                <Stack direction="row" sx={{ flexShrink: 0, ml: "auto" }}>
                  {!editor.readOnly && (
                    <>
                      <IconButton
                        size="small"
                        disabled={index === 0}
                        aria-label={translate("admin.editor.moveUpNamed", { name })}
                        onClick={() => move(rule, "up")}
                      >
                        <ArrowUpwardIcon fontSize="small" />
                      </IconButton>
                      <IconButton
                        size="small"
                        disabled={index === steps.length - 1}
                        aria-label={translate("admin.editor.moveDownNamed", { name })}
                        onClick={() => move(rule, "down")}
                      >
                        <ArrowDownwardIcon fontSize="small" />
                      </IconButton>
                    </>
                  )}
                  <IconButton
                    size="small"
                    aria-label={translate(editor.readOnly ? "admin.editor.linked.view" : "admin.editor.linked.edit", {
                      name,
                    })}
                    onClick={() => onEdit(rule)}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  {!editor.readOnly && from === null && (
                    <IconButton
                      size="small"
                      aria-label={translate("admin.editor.linked.unlink", { name })}
                      onClick={() => onUnlink(rule)}
                    >
                      <LinkOffIcon fontSize="small" />
                    </IconButton>
                  )}
                </Stack>
              </Stack>
              {(warnings.get(rule.id) ?? []).map((warning) => (
                <Alert key={warning.node.id} severity="warning" sx={{ mt: 0.5, py: 0 }}>
                  {warningText(warning)}
                </Alert>
              ))}
            </ListItem>
          );
        })}
      </List>
      {isElementPriced && (
        <Typography variant="body2" sx={{ mt: 1, fontWeight: "medium" }}>
          {translate("admin.editor.priceRules.basePrice", { price: formatMoney(basePriceOf(steps), locale) })}
        </Typography>
      )}
    </>
  );
};

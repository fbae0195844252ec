import { Box, Button, type ButtonProps, Stack, Tab, Tabs, Typography } from "@mui/material";
import { useState } from "react";
import { Title, useBasename, useNotify, useParams, useTranslate } from "react-admin";
import { Link as RouterLink } from "react-router";
import { PageNotFound } from "../layout/ErrorPages.tsx";
import { Popover } from "../widgets/Popover.tsx";
import { useConfirm } from "../widgets/PromptDialog.tsx";
import { Tooltip } from "../widgets/Tooltip.tsx";
import type { ToastType } from "../widgets/toasts.ts";
import { DemoSection } from "./DemoSection.tsx";
import { SuperuserOnly } from "./SuperuserOnly.tsx";

/** docs/specification.md §2.1: demo/buttons/{path}; the path is the buttons' variant. */
const VARIANTS = ["contained", "outlined", "text"] as const;
type Variant = (typeof VARIANTS)[number];
const isVariant = (path: string | undefined): path is Variant => (VARIANTS as readonly string[]).includes(path ?? "");

const COLORS = ["primary", "secondary", "error", "success"] as const satisfies ButtonProps["color"][];
const TOAST_TYPES: ToastType[] = ["info", "success", "warning", "error"];

const ButtonStates = ({ variant }: { variant: Variant }) => {
  const translate = useTranslate();
  return (
    <Stack spacing={1}>
      {COLORS.map((color) => (
        <Stack key={color} direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
          <Button variant={variant} color={color}>
            {translate("admin.demo.enabled")}
          </Button>
          <Button variant={variant} color={color} disabled>
            {translate("admin.demo.disabled")}
          </Button>
          <Button variant={variant} color={color} loading loadingPosition="start">
            {translate("admin.demo.pending")}
          </Button>
        </Stack>
      ))}
    </Stack>
  );
};

const Toasts = ({ variant }: { variant: Variant }) => {
  const translate = useTranslate();
  const notify = useNotify();
  return (
    <>
      {TOAST_TYPES.map((type) => {
        const name = translate(`admin.demo.toastTypes.${type}`);
        return (
          <Button
            key={type}
            variant={variant}
            onClick={() => notify("admin.demo.toastMessage", { type, messageArgs: { type: name } })}
          >
            {translate("admin.demo.showToast", { type: name })}
          </Button>
        );
      })}
      <Button
        variant={variant}
        onClick={() => notify("admin.demo.stickyMessage", { type: "info", isAutoClosing: false })}
      >
        {translate("admin.demo.stickyToast")}
      </Button>
    </>
  );
};

const Dialogs = ({ variant }: { variant: Variant }) => {
  const translate = useTranslate();
  const { confirm, prompt, dialog } = useConfirm();
  const [answer, setAnswer] = useState<string | null>(null);
  const ask = async () => {
    const answer = await confirm({
      title: "admin.demo.confirmTitle",
      message: "admin.demo.confirmText",
      confirmLabel: "ra.action.delete",
      isDangerous: true,
    });
    setAnswer(translate("admin.demo.answer", { answer: String(answer) }));
  };
  const askWithInput = async () => {
    const { answer, value } = await prompt({
      title: "admin.demo.promptTitle",
      input: { label: "admin.demo.promptLabel", isRequired: true },
    });
    setAnswer(translate("admin.demo.answerWithValue", { answer: String(answer), value }));
  };
  return (
    <>
      <Button variant={variant} color="error" onClick={ask}>
        {translate("admin.demo.confirm")}
      </Button>
      <Button variant={variant} onClick={askWithInput}>
        {translate("admin.demo.prompt")}
      </Button>
      {answer && <Typography aria-live="polite">{answer}</Typography>}
      {dialog}
    </>
  );
};

const ButtonsDemoPage = ({ variant }: { variant: Variant }) => {
  const translate = useTranslate();
  const basename = useBasename();
  const title = translate("admin.demo.buttonsTitle", { path: variant });
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title={title} />
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Tabs value={variant} aria-label={translate("admin.demo.variant")} variant="scrollable">
        {VARIANTS.map((each) => (
          <Tab
            key={each}
            value={each}
            label={translate(`admin.demo.variants.${each}`)}
            component={RouterLink}
            to={`${basename}/demo/buttons/${each}`}
          />
        ))}
      </Tabs>
      <DemoSection title="admin.demo.buttons">
        <ButtonStates variant={variant} />
      </DemoSection>
      <DemoSection title="admin.demo.toasts">
        <Toasts variant={variant} />
      </DemoSection>
      <DemoSection title="admin.demo.dialogs">
        <Dialogs variant={variant} />
      </DemoSection>
      <DemoSection title="admin.demo.overlays">
        <Popover label={translate("admin.demo.popover")} buttonProps={{ variant }}>
          <Typography>{translate("admin.demo.popoverText")}</Typography>
        </Popover>
        <Tooltip title={translate("admin.demo.tooltipText")}>
          <Box component="span" tabIndex={0} sx={{ p: 1, borderBottom: "1px dotted", cursor: "help" }}>
            {translate("admin.demo.tooltip")}
          </Box>
        </Tooltip>
      </DemoSection>
    </Stack>
  );
};

/** docs/specification.md §2.1: /demo/buttons/:path; a path that is no variant is the 404 page. */
export const ButtonsDemo = () => {
  const { path } = useParams();
  return <SuperuserOnly>{isVariant(path) ? <ButtonsDemoPage variant={path} /> : <PageNotFound />}</SuperuserOnly>;
};

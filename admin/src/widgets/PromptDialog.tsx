import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from "@mui/material";
import { type FormEvent, type ReactNode, useCallback, useId, useState } from "react";
import { useTranslate } from "react-admin";

export interface PromptOptions {
  /** translation keys, translated with `messageArgs` (or text already translated) */
  title: string;
  message?: string;
  messageArgs?: Record<string, unknown>;
  /** the confirm button's text (default Confirm) */
  confirmLabel?: string;
  /** true: the confirm button is red (a delete, a cancel) */
  isDangerous?: boolean;
  /** the optional input: its label, and whether it must be filled before confirming */
  input?: { label: string; isRequired?: boolean; initialValue?: string };
}

interface PromptDialogProps extends PromptOptions {
  isOpen: boolean;
  /** the confirm button waits (the action is under way) */
  isPending?: boolean;
  /**
   * docs/specification.md §4: true on confirm, false on cancel or a click on the backdrop (Esc too); `value`: the
   * input's text
   */
  onAnswer: (answer: boolean, value: string) => void;
}

/** docs/specification.md §2.5 / §5: the confirm/prompt dialog every delete and cancel goes through. */
export const PromptDialog = ({
  isOpen,
  isPending = false,
  title,
  message,
  messageArgs,
  confirmLabel = "ra.action.confirm",
  isDangerous = false,
  input,
  onAnswer,
}: PromptDialogProps) => {
  const translate = useTranslate();
  // Text already translated passes as it is.
  const text = (keyOrText: string) => translate(keyOrText, { _: keyOrText, ...messageArgs });
  const titleId = useId();
  const [value, setValue] = useState(input?.initialValue ?? "");
  const isMissing = input?.isRequired === true && value.trim() === "";
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation(); // the dialog sits in a portal: its submit must not reach a form around its button
    if (!isMissing) onAnswer(true, value.trim());
  };
  return (
    <Dialog
      open={isOpen}
      // While the confirmed action runs, a backdrop click or Esc cannot answer again.
      onClose={() => isPending || onAnswer(false, value)}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
      slotProps={{ paper: { component: "form", onSubmit: confirm, noValidate: true } as object }}
    >
      <DialogTitle id={titleId}>{text(title)}</DialogTitle>
      <DialogContent>
        {message && <DialogContentText>{text(message)}</DialogContentText>}
        {input && (
          <TextField
            label={text(input.label)}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            required={input.isRequired}
            autoFocus
            fullWidth
            multiline
            minRows={2}
            sx={{ mt: 2 }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onAnswer(false, value)} disabled={isPending}>
          {translate("ra.action.cancel")}
        </Button>
        <Button
          type="submit"
          variant="contained"
          color={isDangerous ? "error" : "primary"}
          disabled={isPending || isMissing}
          loading={isPending}
        >
          {text(confirmLabel)}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

interface Question {
  options: PromptOptions;
  resolve: (answer: { answer: boolean; value: string }) => void;
}

/**
 * docs/specification.md §4: `confirm(options)` shows the dialog and returns a promise of the answer (true on confirm,
 * false on cancel or a backdrop click), then hides it; `prompt(options)` does the same with the input's text. `dialog`
 * is to be rendered by the caller.
 */
export function useConfirm() {
  const [question, setQuestion] = useState<Question | null>(null);
  const prompt = useCallback(
    (options: PromptOptions) =>
      new Promise<{ answer: boolean; value: string }>((resolve) => setQuestion({ options, resolve })),
    [],
  );
  const confirm = useCallback(async (options: PromptOptions) => (await prompt(options)).answer, [prompt]);
  const dialog: ReactNode = question && (
    <PromptDialog
      isOpen
      {...question.options}
      onAnswer={(answer, value) => {
        setQuestion(null);
        question.resolve({ answer, value });
      }}
    />
  );
  return { confirm, prompt, dialog };
}

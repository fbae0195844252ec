import { Button, type ButtonProps } from "@mui/material";
import { type ReactNode, useState } from "react";
import { Confirm, useTranslate } from "react-admin";

interface ConfirmButtonProps extends Pick<ButtonProps, "size" | "variant" | "color"> {
  /** the button's text, a translation key (also the dialog's confirm button unless `confirm` says otherwise) */
  label: string;
  icon?: ReactNode;
  /** the dialog's title and text, translation keys */
  title: string;
  content: string;
  contentTranslateOptions?: Record<string, unknown>;
  confirm?: string;
  /** what the button does once confirmed; answering false keeps the dialog open (a failure to try again) */
  onConfirm: () => Promise<unknown>;
}

/**
 * A button that asks before it acts: its dialog shows it is busy while `onConfirm` runs, and closes once that is
 * done, unless `onConfirm` answered false.
 */
export const ConfirmButton = ({
  label,
  icon,
  title,
  content,
  contentTranslateOptions,
  confirm,
  onConfirm,
  ...button
}: ConfirmButtonProps) => {
  const translate = useTranslate();
  const [isOpen, setOpen] = useState(false);
  const [isPending, setPending] = useState(false);
  const run = async () => {
    setPending(true);
    try {
      if ((await onConfirm()) !== false) setOpen(false);
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Button {...button} startIcon={icon} onClick={() => setOpen(true)} disabled={isPending}>
        {translate(label)}
      </Button>
      <Confirm
        isOpen={isOpen}
        loading={isPending}
        title={title}
        content={content}
        contentTranslateOptions={contentTranslateOptions}
        confirm={confirm}
        onConfirm={run}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

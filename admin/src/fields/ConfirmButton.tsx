import { Button, type ButtonProps } from "@mui/material";
import { type ReactNode, useState } from "react";
import { useDelete, useNotify, useRecordContext, useRedirect, useResourceContext, useTranslate } from "react-admin";
import { PromptDialog } from "../widgets/PromptDialog.tsx";

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
 * A button that asks before it acts (docs/specification.md §5: deletes and cancels are confirmed), through the shared
 * confirm dialog: the dialog shows it is busy while `onConfirm` runs, and closes once that is done, unless `onConfirm`
 * answered false.
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
  const answer = async (isConfirmed: boolean) => {
    if (!isConfirmed) return setOpen(false);
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
      {isOpen && (
        <PromptDialog
          isOpen
          isPending={isPending}
          title={title}
          message={content}
          messageArgs={contentTranslateOptions}
          confirmLabel={confirm ?? label}
          isDangerous={button.color === "error"}
          onAnswer={answer}
        />
      )}
    </>
  );
};

/**
 * An Edit page's Delete, asked through the confirm dialog (react-admin's own DeleteButton deletes at once with an
 * undo): once deleted, back to the list.
 */
export const DeleteRecordButton = () => {
  const record = useRecordContext();
  const resource = useResourceContext();
  const [deleteOne] = useDelete();
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  if (!record || !resource) return null;
  const name = translate(`resources.${resource}.name`, { smart_count: 1, _: resource }).toLocaleLowerCase();
  const remove = () =>
    deleteOne(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: "pessimistic",
        returnPromise: true,
        onSuccess: () => {
          notify("ra.notification.deleted", { type: "info", messageArgs: { smart_count: 1 } });
          redirect("list", resource);
        },
        // A refusal (409 of an event with sales…) is said, and the dialog stays open.
        onError: (error) => notify((error as Error).message || "ra.notification.http_error", { type: "error" }),
      },
    ).catch(() => false);
  return (
    <ConfirmButton
      label="ra.action.delete"
      color="error"
      title="ra.message.delete_title"
      content="ra.message.delete_content"
      contentTranslateOptions={{ name, recordRepresentation: record.name ?? `#${record.id}` }}
      onConfirm={remove}
    />
  );
};

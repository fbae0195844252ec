import { Button, type ButtonProps } from "@mui/material";
import { type ChangeEvent, useRef } from "react";

/**
 * A button that opens the file picker: a real <button> that clicks a hidden file input. MUI's `component="label"`
 * pattern gave a <label role="button">, a role a label may not take (axe's aria-allowed-role, WCAG 4.1.2).
 */
export const FileButton = ({
  accept,
  inputId,
  onFile,
  children,
  ...props
}: Omit<ButtonProps, "onClick" | "component"> & {
  accept: string;
  inputId?: string;
  onFile: (event: ChangeEvent<HTMLInputElement>) => void;
}) => {
  const input = useRef<HTMLInputElement>(null);
  // The input keeps the button's words as its name, as when the label held it (a test's getByLabel finds it).
  return (
    <>
      <Button {...props} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={accept}
        hidden
        tabIndex={-1}
        aria-label={typeof children === "string" ? children : undefined}
        onChange={onFile}
      />
    </>
  );
};

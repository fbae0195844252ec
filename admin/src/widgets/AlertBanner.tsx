import { Alert, type AlertColor } from "@mui/material";
import { type ReactNode, useState } from "react";
import { useTranslate } from "react-admin";
import { useAutoClose } from "./autoClose.ts";

/** docs/specification.md §4: the alert states. */
export const ALERT_STATES = ["information", "warning", "error", "danger", "success"] as const;
export type AlertState = (typeof ALERT_STATES)[number];

// MUI has four severities: danger is an error drawn solid, so it stands out from an ordinary error.
const SEVERITY: Record<AlertState, AlertColor> = {
  information: "info",
  warning: "warning",
  error: "error",
  danger: "error",
  success: "success",
};

interface AlertBannerProps {
  state: AlertState;
  children: ReactNode;
  /** docs/specification.md §4: closes itself after 5000 ms; false for a notice that must stay (e.g. a locked event) */
  isAutoClosing?: boolean;
  /** false: no close button (a notice that holds as long as its cause) */
  isClosable?: boolean;
  onClose?: () => void;
  sx?: object;
}

/** docs/specification.md §2.5: the closable alert banner. */
export const AlertBanner = ({
  state,
  children,
  isAutoClosing = true,
  isClosable = true,
  onClose,
  sx,
}: AlertBannerProps) => {
  const translate = useTranslate();
  const [isOpen, setOpen] = useState(true);
  const close = () => {
    setOpen(false);
    onClose?.();
  };
  useAutoClose(isOpen && isAutoClosing, close);
  if (!isOpen) return null;
  return (
    <Alert
      severity={SEVERITY[state]}
      variant={state === "danger" ? "filled" : "standard"}
      onClose={isClosable ? close : undefined}
      closeText={translate("ra.action.close")}
      sx={sx}
    >
      {children}
    </Alert>
  );
};

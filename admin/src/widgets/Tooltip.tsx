import { Tooltip as MuiTooltip, type TooltipProps as MuiTooltipProps } from "@mui/material";
import { useState } from "react";

/**
 * docs/specification.md §4: a tooltip that opens on mouse enter and closes on mouse leave, at once (MUI waits 100 ms by
 * default); keyboard focus opens it too.
 */
export const Tooltip = ({ title, children }: Pick<MuiTooltipProps, "title" | "children">) => {
  const [isOpen, setOpen] = useState(false);
  return (
    <MuiTooltip
      title={title}
      open={isOpen}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      enterDelay={0}
      leaveDelay={0}
      arrow
    >
      {children}
    </MuiTooltip>
  );
};

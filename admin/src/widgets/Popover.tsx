import { Button, type ButtonProps, ClickAwayListener, Paper, Popper } from "@mui/material";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { debounce, POPOVER_CLOSE_DELAY_MS, POPOVER_RESIZE_DEBOUNCE_MS, popoverGap } from "./popover.ts";

/** The window's width, read again once a resize has paused for 100 ms (not at every pixel of a drag). */
function useSettledWindowWidth(): number {
  const [width, setWidth] = useState(window.innerWidth);
  useEffect(() => {
    const update = debounce(() => setWidth(window.innerWidth), POPOVER_RESIZE_DEBOUNCE_MS);
    window.addEventListener("resize", update);
    return () => {
      window.removeEventListener("resize", update);
      update.cancel();
    };
  }, []);
  return width;
}

interface PopoverProps {
  /** the button's text (already translated) */
  label: ReactNode;
  children: ReactNode;
  buttonProps?: Omit<ButtonProps, "onClick">;
}

/**
 * docs/specification.md §2.5 / §9: a button that opens a panel below it; a click away or Esc closes it 125 ms later (a
 * click back on the panel in the meantime keeps it open); the gap to the button follows the window's width.
 */
export const Popover = ({ label, children, buttonProps }: PopoverProps) => {
  const panelId = useId();
  const anchor = useRef<HTMLButtonElement>(null);
  const [isOpen, setOpen] = useState(false);
  const closing = useRef<ReturnType<typeof setTimeout>>(undefined);
  const gap = popoverGap(useSettledWindowWidth());
  const keepOpen = () => clearTimeout(closing.current);
  const close = () => {
    keepOpen();
    closing.current = setTimeout(() => setOpen(false), POPOVER_CLOSE_DELAY_MS);
  };
  // A close still pending when the popover goes away must not set the state of an unmounted component.
  useEffect(() => () => clearTimeout(closing.current), []);
  return (
    <>
      <Button
        {...buttonProps}
        ref={anchor}
        aria-expanded={isOpen}
        aria-controls={isOpen ? panelId : undefined}
        onClick={() => {
          keepOpen();
          setOpen(!isOpen);
        }}
      >
        {label}
      </Button>
      <Popper open={isOpen} anchorEl={anchor.current} placement="bottom-start" sx={{ zIndex: "modal" }}>
        <ClickAwayListener onClickAway={(event) => anchor.current?.contains(event.target as Node) || close()}>
          <Paper
            id={panelId}
            role="dialog"
            data-overlay="pop-up"
            elevation={8}
            onMouseDown={keepOpen}
            onKeyDown={(event) => event.key === "Escape" && close()}
            // docs/specification.md §9: the gap is a margin so the panel is placed by Popper and then moved by
            // exactly this much.
            style={{ marginTop: gap }}
            sx={{ p: 2, maxWidth: 360 }}
          >
            {children}
          </Paper>
        </ClickAwayListener>
      </Popper>
    </>
  );
};

// docs/specification.md §9: the popover's numbers.

/** A close waits this long, so a pointer or a click coming straight back cancels it instead of a flicker. */
export const POPOVER_CLOSE_DELAY_MS = 125;
/** The window's width is read again only once resizing has paused this long. */
export const POPOVER_RESIZE_DEBOUNCE_MS = 100;
const POPOVER_WIDE_SCREEN_PX = 768;

/** The space between the popover and what it points at: 8 px above 768 px of width, 4 px on a phone. */
export const popoverGap = (windowWidth: number): number => (windowWidth > POPOVER_WIDE_SCREEN_PX ? 8 : 4);

/** `run` once calls have paused for `ms`; `cancel` drops a pending call (a component going away). */
export function debounce<A extends unknown[]>(run: (...args: A) => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => run(...args), ms);
  };
  return Object.assign(call, { cancel: () => clearTimeout(timer) });
}

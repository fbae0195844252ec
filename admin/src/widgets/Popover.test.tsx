// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Popover } from "./Popover.tsx";
import { Tooltip } from "./Tooltip.tsx";
import { renderInAdmin } from "./test-render.tsx";

const resizeTo = (width: number) => {
  window.innerWidth = width;
  fireEvent(window, new Event("resize"));
};

beforeEach(() => {
  vi.useFakeTimers();
  window.innerWidth = 1024;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const renderPopover = () => {
  renderInAdmin(
    <Popover label="More">
      <span>Details</span>
    </Popover>,
  );
  fireEvent.click(screen.getByRole("button", { name: "More" }));
  return screen.getByRole("dialog");
};

describe("Popover", () => {
  it("opens below its button on a click", () => {
    const panel = renderPopover();
    expect(panel.textContent).toBe("Details");
    expect(screen.getByRole("button", { name: "More" }).getAttribute("aria-expanded")).toBe("true");
  });

  it("closes 125 ms after Esc, not before", () => {
    const panel = renderPopover();
    fireEvent.keyDown(panel, { key: "Escape" });
    act(() => vi.advanceTimersByTime(124));
    expect(screen.queryByRole("dialog")).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("stays open when the panel is pressed again within the 125 ms", () => {
    const panel = renderPopover();
    fireEvent.keyDown(panel, { key: "Escape" });
    act(() => vi.advanceTimersByTime(100));
    fireEvent.mouseDown(panel);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole("dialog")).not.toBeNull();
  });

  it("keeps 8 px from the button on a wide window and 4 px on a narrow one, once resizing has paused 100 ms", () => {
    const panel = renderPopover();
    expect(panel.style.marginTop).toBe("8px");
    act(() => resizeTo(390));
    act(() => vi.advanceTimersByTime(99));
    expect(panel.style.marginTop).toBe("8px");
    act(() => vi.advanceTimersByTime(1));
    expect(panel.style.marginTop).toBe("4px");
    act(() => resizeTo(800));
    act(() => vi.advanceTimersByTime(100));
    expect(panel.style.marginTop).toBe("8px");
  });
});

describe("Tooltip", () => {
  it("opens on mouse enter and closes on mouse leave", () => {
    renderInAdmin(
      <Tooltip title="Helpful">
        <button type="button">Hover me</button>
      </Tooltip>,
    );
    const button = screen.getByText("Hover me");
    expect(screen.queryByRole("tooltip")).toBeNull();
    fireEvent.mouseOver(button);
    act(() => vi.advanceTimersByTime(0));
    expect(screen.getByRole("tooltip").textContent).toBe("Helpful");
    fireEvent.mouseLeave(button);
    act(() => vi.advanceTimersByTime(0));
    act(() => vi.advanceTimersByTime(1000)); // the fade-out transition
    expect(screen.queryByRole("tooltip")).toBeNull();
  });
});

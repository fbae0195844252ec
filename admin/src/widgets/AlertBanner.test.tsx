// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALERT_STATES, AlertBanner } from "./AlertBanner.tsx";
import { renderInAdmin } from "./test-render.tsx";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("AlertBanner", () => {
  it("shows each of the five states as an alert", () => {
    renderInAdmin(
      ALERT_STATES.map((state) => <AlertBanner key={state} state={state}>{`the ${state} alert`}</AlertBanner>),
    );
    expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toEqual(
      ALERT_STATES.map((state) => `the ${state} alert`),
    );
  });

  it("closes itself after 5000 ms, and says so", () => {
    const onClose = vi.fn();
    renderInAdmin(
      <AlertBanner state="warning" onClose={onClose}>
        Careful
      </AlertBanner>,
    );
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.getByRole("alert")).toHaveProperty("textContent", "Careful");
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("closes with its close button", () => {
    renderInAdmin(<AlertBanner state="success">Saved</AlertBanner>);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("stays when it is not auto-closing", () => {
    renderInAdmin(
      <AlertBanner state="information" isAutoClosing={false}>
        Locked
      </AlertBanner>,
    );
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByRole("alert")).toBeTruthy();
  });
});

// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from "@testing-library/react";
import { useNotify } from "react-admin";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ToastNotifications } from "./Toasts.tsx";
import { renderInAdmin } from "./test-render.tsx";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A screen that notifies the way the back office's screens do. */
const Notifier = () => {
  const notify = useNotify();
  return (
    <>
      <button type="button" onClick={() => notify("admin.demo.alertText.success", { type: "success" })}>
        saved
      </button>
      <button type="button" onClick={() => notify("admin.inputs.number.invalid", { type: "error" })}>
        translated
      </button>
      <button type="button" onClick={() => notify("admin.demo.stickyMessage", { type: "info", isAutoClosing: false })}>
        sticky
      </button>
    </>
  );
};

const renderToasts = () =>
  renderInAdmin(
    <>
      <Notifier />
      <ToastNotifications />
    </>,
  );
const toasts = () => within(screen.getByRole("region", { name: "Notifications" })).queryAllByRole("alert");
const texts = () => toasts().map((toast) => toast.textContent);

describe("ToastNotifications", () => {
  it("shows every notification as a toast of its own, with a running id, translated", () => {
    renderToasts();
    fireEvent.click(screen.getByText("saved"));
    fireEvent.click(screen.getByText("saved"));
    fireEvent.click(screen.getByText("translated"));
    expect(texts()).toEqual(["A success alert", "A success alert", "Enter a valid number"]);
    expect(toasts().map((toast) => toast.dataset.toastId)).toEqual(["1", "2", "3"]);
  });

  it("removes the toast whose close button is clicked, by its id, and no other", () => {
    renderToasts();
    fireEvent.click(screen.getByText("saved"));
    fireEvent.click(screen.getByText("translated"));
    fireEvent.click(within(toasts()[0] as HTMLElement).getByRole("button", { name: "Close" }));
    expect(texts()).toEqual(["Enter a valid number"]);
    expect(toasts()[0]?.dataset.toastId).toBe("2");
  });

  it("closes a toast after 5000 ms, each counting from its own start", () => {
    renderToasts();
    fireEvent.click(screen.getByText("saved"));
    act(() => vi.advanceTimersByTime(3000));
    fireEvent.click(screen.getByText("translated"));
    act(() => vi.advanceTimersByTime(1999));
    expect(texts()).toEqual(["A success alert", "Enter a valid number"]);
    act(() => vi.advanceTimersByTime(1));
    expect(texts()).toEqual(["Enter a valid number"]);
    act(() => vi.advanceTimersByTime(3000));
    expect(texts()).toEqual([]);
  });

  it("keeps a toast that is not auto-closing until it is closed", () => {
    renderToasts();
    fireEvent.click(screen.getByText("sticky"));
    act(() => vi.advanceTimersByTime(60_000));
    expect(texts()).toEqual(["This toast stays until it is closed"]);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(texts()).toEqual([]);
  });
});

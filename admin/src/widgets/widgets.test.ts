import { describe, expect, it, vi } from "vitest";
import { clamp, isValidNumberText, numberOnBlur, parseNumberText, stepValue } from "./numberInput.ts";
import { debounce, POPOVER_CLOSE_DELAY_MS, POPOVER_RESIZE_DEBOUNCE_MS, popoverGap } from "./popover.ts";
import { isChanged, textErrors } from "./textInput.ts";
import { addToast, NO_TOASTS, removeToast, toastOf } from "./toasts.ts";

describe("toasts", () => {
  const toast = { message: "Saved", type: "info" as const, isAutoClosing: true };

  it("gives each toast the next running id, the same text twice included", () => {
    const list = addToast(addToast(addToast(NO_TOASTS, toast), toast), { ...toast, message: "Other" });
    expect(list.toasts.map((t) => t.id)).toEqual([1, 2, 3]);
  });

  it("removes exactly the toast of the id, and never hands its id out again", () => {
    const list = removeToast(addToast(addToast(NO_TOASTS, toast), toast), 1);
    expect(list.toasts.map((t) => t.id)).toEqual([2]);
    expect(addToast(list, toast).toasts.map((t) => t.id)).toEqual([2, 3]);
  });

  it("auto-closes a notification unless isAutoClosing is false or react-admin's autoHideDuration is null", () => {
    expect(toastOf({ message: "m", type: "success" }).isAutoClosing).toBe(true);
    expect(toastOf({ message: "m", type: "info", notificationOptions: { isAutoClosing: false } }).isAutoClosing).toBe(
      false,
    );
    expect(toastOf({ message: "m", type: "info", notificationOptions: { autoHideDuration: null } }).isAutoClosing).toBe(
      false,
    );
  });
});

describe("popover", () => {
  it("keeps 8 px from its anchor above 768 px of width, 4 px at 768 and below", () => {
    expect(popoverGap(1024)).toBe(8);
    expect(popoverGap(769)).toBe(8);
    expect(popoverGap(768)).toBe(4);
    expect(popoverGap(390)).toBe(4);
  });

  it("uses the spec's delays", () => {
    expect(POPOVER_CLOSE_DELAY_MS).toBe(125);
    expect(POPOVER_RESIZE_DEBOUNCE_MS).toBe(100);
  });

  it("runs a debounced call once, when the calls have paused", () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const debounced = debounce(run, 100);
    debounced(1);
    vi.advanceTimersByTime(60);
    debounced(2);
    vi.advanceTimersByTime(99);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledExactlyOnceWith(2);
    debounced(3);
    debounced.cancel();
    vi.advanceTimersByTime(100);
    expect(run).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });
});

describe("number input rules", () => {
  it("accepts only digits without decimals", () => {
    expect(isValidNumberText("42", false)).toBe(true);
    for (const text of ["4.2", "4,2", "-4", "4e2", "4 2", "abc", ""])
      expect(isValidNumberText(text, false)).toBe(false);
  });

  it("accepts a . or , and at most 2 decimals with decimals", () => {
    for (const text of ["42", "4.2", "4,25", "0.05"]) expect(isValidNumberText(text, true)).toBe(true);
    for (const text of ["4.255", "4.", ".5", "4.2.1", "4,2,1", "-1.5"])
      expect(isValidNumberText(text, true)).toBe(false);
    expect(parseNumberText("4,25", true)).toBe(4.25);
    expect(parseNumberText("4,255", true)).toBeNull();
  });

  it("clamps to min and max", () => {
    expect(clamp(12, 0, 10)).toBe(10);
    expect(clamp(-3, 0, 10)).toBe(0);
    expect(clamp(5, 0, 10)).toBe(5);
    expect(clamp(5)).toBe(5);
  });

  it("steps by 1 by default, by the step given, without float noise, and clamped", () => {
    expect(stepValue(3, { direction: 1 })).toBe(4);
    expect(stepValue(3, { direction: -1 })).toBe(2);
    expect(stepValue(0.1, { step: 0.2, direction: 1 })).toBe(0.3);
    expect(stepValue(9, { step: 5, direction: 1, max: 10 })).toBe(10);
    expect(stepValue(null, { direction: 1, min: 2 })).toBe(3);
    expect(stepValue(null, { direction: -1, min: 0 })).toBe(0);
  });

  const rules = { hasDecimals: false, min: 0, max: 10, isRequired: false, isValidationEnabled: true };

  it("says inputs.number.invalid on blur when validating, and otherwise keeps the last value silently", () => {
    expect(numberOnBlur("1.5", 3, rules)).toEqual({ value: 3, error: "admin.inputs.number.invalid" });
    expect(numberOnBlur("1.5", 3, { ...rules, isValidationEnabled: false })).toEqual({ value: 3, error: null });
    expect(numberOnBlur("1.5", 3, { ...rules, isValidationEnabled: false, isRequired: true }).error).toBe(
      "admin.inputs.number.invalid",
    );
  });

  it("requires a value only when required, and clamps a valid one", () => {
    expect(numberOnBlur("", 3, { ...rules, isRequired: true }).error).toBe("ra.validation.required");
    expect(numberOnBlur("", 3, rules)).toEqual({ value: null, error: null });
    expect(numberOnBlur("25", 3, rules)).toEqual({ value: 10, error: null });
  });
});

describe("text input rules", () => {
  it("requires a value only when required", () => {
    expect(textErrors("", { isRequired: true })).toEqual(["ra.validation.required"]);
    expect(textErrors("", {})).toEqual([]);
  });

  it("gives the custom validator's messages", () => {
    const validate = (value: string) => (value.startsWith("A") ? [] : ["must start with A", "really"]);
    expect(textErrors("Bob", { validate })).toEqual(["must start with A", "really"]);
    expect(textErrors("Alice", { validate })).toEqual([]);
  });

  it("sees a change only when the text differs from the starting value", () => {
    expect(isChanged("a", "a")).toBe(false);
    expect(isChanged("ab", "a")).toBe(true);
  });
});

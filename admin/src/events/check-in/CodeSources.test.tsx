// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { I18nContextProvider } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createI18nProvider } from "../../i18nProvider.ts";
import { CameraScanner, TypedCode } from "./CodeSources.tsx";

afterEach(cleanup);

const withTexts = (ui: React.ReactElement) =>
  render(<I18nContextProvider value={createI18nProvider("en")}>{ui}</I18nContextProvider>);

describe("TypedCode", () => {
  it("sends the code as printed on two lines joined, then empties the field for the next ticket", async () => {
    const onCode = vi.fn();
    withTexts(<TypedCode onCode={onCode} busy={false} />);
    const field = screen.getByRole("textbox", { name: "Ticket code" });
    await userEvent.type(field, "  eyJlIjoxfQ .sig-nature_1 {Enter}");
    expect(onCode).toHaveBeenCalledWith("eyJlIjoxfQ.sig-nature_1");
    expect(field).toHaveProperty("value", "");
  });

  it("sends nothing while a scan is on its way, or when nothing is typed", async () => {
    const onCode = vi.fn();
    const { rerender } = withTexts(<TypedCode onCode={onCode} busy={false} />);
    expect(screen.getByRole("button", { name: "Check in" })).toHaveProperty("disabled", true);
    await userEvent.type(screen.getByRole("textbox", { name: "Ticket code" }), "abc.def");
    rerender(
      <I18nContextProvider value={createI18nProvider("en")}>
        <TypedCode onCode={onCode} busy />
      </I18nContextProvider>,
    );
    expect(screen.getByRole("button", { name: "Check in" })).toHaveProperty("disabled", true);
    expect(onCode).not.toHaveBeenCalled();
  });
});

describe("CameraScanner", () => {
  it("says to take a photo instead where the browser gives the page no camera (a plain http address)", () => {
    // jsdom, as a phone's browser on http, has no navigator.mediaDevices.
    withTexts(<CameraScanner onCode={vi.fn()} />);
    expect(screen.getByText(/take a photo of the ticket instead/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Scan with the camera" })).toBeNull();
  });
});

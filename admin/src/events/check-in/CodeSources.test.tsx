// @vitest-environment jsdom
import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderInAdmin } from "../../widgets/test-render.tsx";
import { CameraScanner, TypedCode } from "./CodeSources.tsx";

afterEach(cleanup);

describe("TypedCode", () => {
  it("sends the code as printed on two lines joined, then empties the field for the next ticket", async () => {
    const onCode = vi.fn();
    renderInAdmin(<TypedCode onCode={onCode} busy={false} />);
    const field = screen.getByRole("textbox", { name: "Ticket code" });
    await userEvent.type(field, "  eyJlIjoxfQ .sig-nature_1 {Enter}");
    expect(onCode).toHaveBeenCalledWith("eyJlIjoxfQ.sig-nature_1");
    expect(field).toHaveProperty("value", "");
  });

  it("sends nothing while a scan is on its way, or when nothing is typed", async () => {
    const onCode = vi.fn();
    const { rerender } = renderInAdmin(<TypedCode onCode={onCode} busy={false} />);
    expect(screen.getByRole("button", { name: "Check in" })).toHaveProperty("disabled", true);
    await userEvent.type(screen.getByRole("textbox", { name: "Ticket code" }), "abc.def");
    rerender(<TypedCode onCode={onCode} busy />);
    expect(screen.getByRole("button", { name: "Check in" })).toHaveProperty("disabled", true);
    expect(onCode).not.toHaveBeenCalled();
  });
});

describe("CameraScanner", () => {
  it("says to take a photo instead where the browser gives the page no camera (a plain http address)", () => {
    // jsdom, as a phone's browser on http, has no navigator.mediaDevices.
    renderInAdmin(<CameraScanner onCode={vi.fn()} />);
    expect(screen.getByText(/take a photo of the ticket instead/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Scan with the camera" })).toBeNull();
  });
});

// @vitest-environment jsdom
import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderInAdmin } from "../widgets/test-render.tsx";
import { ConfirmButton } from "./ConfirmButton.tsx";

afterEach(cleanup);

const renderButton = (onConfirm: () => Promise<unknown>) => {
  renderInAdmin(
    <ConfirmButton
      label="ra.action.delete"
      color="error"
      title="admin.demo.confirmTitle"
      content="admin.demo.confirmText"
      onConfirm={onConfirm}
    />,
  );
  return userEvent.setup();
};

describe("ConfirmButton", () => {
  it("does nothing until confirmed: cancel leaves everything as it was", async () => {
    const onConfirm = vi.fn(async () => undefined);
    const user = renderButton(onConfirm);
    await user.click(screen.getByRole("button", { name: "Delete" }));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("acts once confirmed, then closes", async () => {
    const onConfirm = vi.fn(async () => undefined);
    const user = renderButton(onConfirm);
    await user.click(screen.getByRole("button", { name: "Delete" }));
    const dialog = screen.getByRole("dialog", { name: "Delete the example?" });
    await user.click(dialog.querySelector("button[type=submit]") as HTMLElement);
    expect(onConfirm).toHaveBeenCalledOnce();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("stays open when the action answers false (a failure to try again)", async () => {
    const user = renderButton(async () => false);
    await user.click(screen.getByRole("button", { name: "Delete" }));
    const dialog = screen.getByRole("dialog");
    await user.click(dialog.querySelector("button[type=submit]") as HTMLElement);
    expect(screen.getByRole("dialog")).toBeTruthy();
  });
});

// @vitest-environment jsdom
import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Form, SaveButton } from "react-admin";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NumberInput } from "./NumberInput.tsx";
import { renderInAdmin } from "./test-render.tsx";

afterEach(cleanup);

describe("NumberInput in a react-admin form", () => {
  it("makes the form savable as soon as a number is typed, and saves it clamped", async () => {
    const user = userEvent.setup();
    const save = vi.fn();
    renderInAdmin(
      <Form record={{ id: 1, reservationMinutes: 30 }} onSubmit={save}>
        <NumberInput source="reservationMinutes" label="Minutes" min={1} max={1440} />
        <SaveButton />
      </Form>,
    );
    const input = screen.getByRole("textbox", { name: "Minutes" });
    const saveButton = screen.getByRole("button", { name: "Save" });
    expect(saveButton).toHaveProperty("disabled", true);
    await user.clear(input);
    await user.type(input, "2000");
    expect(saveButton).toHaveProperty("disabled", false);
    await user.click(saveButton); // the click blurs the field first: clamped to 1440
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(save.mock.calls[0]?.[0]).toMatchObject({ reservationMinutes: 1440 });
  });
});

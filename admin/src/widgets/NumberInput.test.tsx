// @vitest-environment jsdom
import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ComponentProps, useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { NumberField } from "./NumberInput.tsx";
import { renderInAdmin } from "./test-render.tsx";

afterEach(cleanup);

type Props = Omit<ComponentProps<typeof NumberField>, "value" | "onChange" | "label"> & { initial?: number | null };

/** The field with its value kept by a parent that shows it, as a form does. */
const Form = ({ initial = null, ...props }: Props) => {
  const [value, setValue] = useState<number | null>(initial);
  return (
    <>
      <NumberField label="Quantity" value={value} onChange={setValue} {...props} />
      <output>{String(value)}</output>
    </>
  );
};

const setup = (props: Props = {}) => {
  const user = userEvent.setup();
  renderInAdmin(<Form {...props} />);
  const input = screen.getByRole("textbox", { name: /Quantity/ }) as HTMLInputElement;
  const typeAndBlur = async (text: string) => {
    await user.clear(input);
    if (text) await user.type(input, text);
    await user.tab();
  };
  return { user, input, typeAndBlur, value: () => screen.getByRole("status").textContent };
};
const invalid = () => screen.queryByText("Enter a valid number");

describe("NumberField", () => {
  it("keeps a whole number typed, on blur", async () => {
    const { typeAndBlur, value } = setup({ isValidationEnabled: true });
    await typeAndBlur("42");
    expect(value()).toBe("42");
    expect(invalid()).toBeNull();
  });

  it("refuses decimals and letters without decimals: inputs.number.invalid on blur, the value unchanged", async () => {
    const { typeAndBlur, value } = setup({ initial: 3, isValidationEnabled: true });
    await typeAndBlur("4.5");
    expect(invalid()).not.toBeNull();
    expect(value()).toBe("3");
    await typeAndBlur("4a");
    expect(invalid()).not.toBeNull();
    await typeAndBlur("4");
    expect(invalid()).toBeNull();
    expect(value()).toBe("4");
  });

  it("with decimals, takes . or , and at most 2 decimals", async () => {
    const { typeAndBlur, value } = setup({ hasDecimals: true, isValidationEnabled: true });
    await typeAndBlur("12,5");
    expect(value()).toBe("12.5");
    await typeAndBlur("12.25");
    expect(value()).toBe("12.25");
    await typeAndBlur("12.255");
    expect(invalid()).not.toBeNull();
    expect(value()).toBe("12.25");
  });

  it("clamps what is typed to min and max", async () => {
    const { typeAndBlur, value, input } = setup({ min: 1, max: 10, isValidationEnabled: true });
    await typeAndBlur("25");
    expect(value()).toBe("10");
    expect(input.value).toBe("10");
    await typeAndBlur("0");
    expect(value()).toBe("1");
  });

  it("steps by 1 by default, by the step given otherwise, within min and max", async () => {
    const { user, value } = setup({ initial: 9, max: 10 });
    await user.click(screen.getByRole("button", { name: "Add 1" }));
    expect(value()).toBe("10");
    expect(screen.getByRole("button", { name: "Add 1" })).toHaveProperty("disabled", true);
    await user.click(screen.getByRole("button", { name: "Subtract 1" }));
    await user.click(screen.getByRole("button", { name: "Subtract 1" }));
    expect(value()).toBe("8");
    cleanup();
    const stepped = setup({ initial: 0, step: 5 });
    await stepped.user.click(screen.getByRole("button", { name: "Add 5" }));
    expect(stepped.value()).toBe("5");
    expect(stepped.input.value).toBe("5");
  });

  it("validates on blur only when required or validation is enabled", async () => {
    const quiet = setup({ initial: 3 });
    await quiet.typeAndBlur("abc");
    expect(invalid()).toBeNull();
    expect(quiet.input.value).toBe("3"); // back to the last value
    cleanup();
    const required = setup({ isRequired: true });
    await required.typeAndBlur("");
    expect(screen.getByText("Required")).toBeTruthy();
    await required.typeAndBlur("abc");
    expect(invalid()).not.toBeNull();
  });

  it("read-only: cannot be typed in and has no step buttons", async () => {
    const { user, input, value } = setup({ initial: 5, readOnly: true });
    await user.type(input, "1");
    expect(input.value).toBe("5");
    expect(screen.queryByRole("button", { name: "Add 1" })).toBeNull();
    expect(value()).toBe("5");
  });
});

// @vitest-environment jsdom
import { cleanup, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ComponentProps, useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { TextInput } from "./TextInput.tsx";
import { renderInAdmin } from "./test-render.tsx";

afterEach(cleanup);

type Props = Partial<Omit<ComponentProps<typeof TextInput>, "onSave" | "label">>;

/** The field saving into a parent that shows what was saved and how often. */
const Saver = ({ value: initial = "Hello", ...props }: Props) => {
  const [saved, setSaved] = useState<string[]>([]);
  return (
    <>
      <TextInput label="Name" value={saved.at(-1) ?? initial} onSave={(v) => setSaved([...saved, v])} {...props} />
      <output>{saved.join("|")}</output>
    </>
  );
};

const setup = (props: Props = {}) => {
  const user = userEvent.setup();
  renderInAdmin(<Saver {...props} />);
  const input = screen.getByLabelText(/^Name/) as HTMLInputElement;
  return { user, input, saved: () => screen.getByRole("status").textContent };
};
const hints = () => [screen.queryByText("Enter or Tab to save"), screen.queryByText("Esc to cancel")];

describe("TextInput", () => {
  it("saves on Enter by blurring", async () => {
    const { user, input, saved } = setup();
    await user.type(input, " world{Enter}");
    expect(saved()).toBe("Hello world");
    expect(document.activeElement).not.toBe(input);
  });

  it("saves on blur, and not when nothing changed", async () => {
    const { user, input, saved } = setup();
    await user.click(input);
    await user.tab();
    expect(saved()).toBe("");
    await user.type(input, "!");
    await user.tab();
    expect(saved()).toBe("Hello!");
  });

  it("restores the initial value on Esc, without saving", async () => {
    const { user, input, saved } = setup();
    await user.type(input, " there{Escape}");
    expect(input.value).toBe("Hello");
    await user.tab();
    expect(saved()).toBe("");
  });

  it("shows the enter/tab and esc hints only while the value differs", async () => {
    const { user, input } = setup();
    expect(hints()).toEqual([null, null]);
    await user.type(input, "!");
    expect(hints().every((hint) => hint !== null)).toBe(true);
    await user.type(input, "{Backspace}");
    expect(hints()).toEqual([null, null]);
    await user.type(input, "!{Enter}");
    expect(hints()).toEqual([null, null]); // saved: the new value is the one to compare with
  });

  it("cannot be typed past maxLength, and counts", async () => {
    const { user, input } = setup({ value: "", maxLength: 5 });
    await user.type(input, "abcdefgh");
    expect(input.value).toBe("abcde");
    expect(screen.getByText("5 / 5")).toBeTruthy();
  });

  it("shows the custom validator's messages and does not save", async () => {
    const validate = (value: string) => (/^[A-Z]/.test(value) ? [] : ["admin.demo.text.capital"]);
    const { user, input, saved } = setup({ validate });
    await user.clear(input);
    await user.type(input, "hello{Enter}");
    expect(screen.getByText("Should start with a capital letter")).toBeTruthy();
    expect(saved()).toBe("");
    await user.clear(input);
    await user.type(input, "Hi{Enter}");
    expect(screen.queryByText("Should start with a capital letter")).toBeNull();
    expect(saved()).toBe("Hi");
  });

  it("clears with the clear button, keeping the focus for Enter or Esc", async () => {
    const { user, input, saved } = setup();
    await user.click(screen.getByRole("button", { name: "Clear" }));
    expect(input.value).toBe("");
    expect(document.activeElement).toBe(input);
    expect(saved()).toBe("");
    await user.keyboard("{Escape}");
    expect(input.value).toBe("Hello");
  });

  it("masks a password until asked to show it", async () => {
    const { user, input } = setup({ value: "secret", isPassword: true });
    expect(input.type).toBe("password");
    await user.click(screen.getByRole("button", { name: "Show the password" }));
    expect(input.type).toBe("text");
    await user.click(screen.getByRole("button", { name: "Hide the password" }));
    expect(input.type).toBe("password");
  });

  it("read-only: cannot be changed, no clear button, nothing saved", async () => {
    const { user, input, saved } = setup({ readOnly: true });
    await user.type(input, "x{Enter}");
    expect(input.value).toBe("Hello");
    expect(screen.queryByRole("button", { name: "Clear" })).toBeNull();
    expect(saved()).toBe("");
  });
});

// @vitest-environment jsdom
import { cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { type PromptOptions, useConfirm } from "./PromptDialog.tsx";
import { renderInAdmin } from "./test-render.tsx";

afterEach(cleanup);

/** Asks on a click and shows the answer, as a screen using the dialog does. */
const Asker = (options: PromptOptions) => {
  const { confirm, prompt, dialog } = useConfirm();
  const [answer, setAnswer] = useState("none");
  return (
    <>
      <button type="button" onClick={async () => setAnswer(String(await confirm(options)))}>
        ask
      </button>
      <button
        type="button"
        onClick={async () => {
          const { answer, value } = await prompt(options);
          setAnswer(`${answer} ${value}`);
        }}
      >
        prompt
      </button>
      <output>{answer}</output>
      {dialog}
    </>
  );
};

const ask = async (
  button = "ask",
  options: PromptOptions = { title: "admin.demo.confirmTitle", message: "admin.demo.confirmText" },
) => {
  const user = userEvent.setup();
  renderInAdmin(<Asker {...options} />);
  await user.click(screen.getByRole("button", { name: button }));
  return { user, dialog: await screen.findByRole("dialog", { name: "Delete the example?" }) };
};
const dialogIsGone = () => waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

describe("the confirm/prompt dialog", () => {
  it("shows the title and text, and answers true on confirm, then hides", async () => {
    const { user, dialog } = await ask();
    expect(dialog.textContent).toContain("Nothing is deleted: this is a demonstration.");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(screen.getByRole("status").textContent).toBe("true");
    await dialogIsGone();
  });

  it("answers false on cancel, then hides", async () => {
    const { user } = await ask();
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("status").textContent).toBe("false");
    await dialogIsGone();
  });

  it("answers false on a click on the backdrop, then hides", async () => {
    const { user, dialog } = await ask();
    // The backdrop is the dialog's container around the paper: MUI reads a click there as a backdrop click.
    await user.click(dialog.parentElement as HTMLElement);
    expect(screen.getByRole("status").textContent).toBe("false");
    await dialogIsGone();
  });

  it("with an input, answers the text typed on confirm", async () => {
    const { user } = await ask("prompt", {
      title: "admin.demo.confirmTitle",
      input: { label: "admin.demo.promptLabel" },
    });
    await user.type(screen.getByRole("textbox", { name: "Comment" }), "  sold out ");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(screen.getByRole("status").textContent).toBe("true sold out");
  });

  it("with a required input, cannot be confirmed empty", async () => {
    const { user } = await ask("prompt", {
      title: "admin.demo.confirmTitle",
      input: { label: "admin.demo.promptLabel", isRequired: true },
    });
    const confirm = screen.getByRole("button", { name: "Confirm" });
    expect(confirm).toHaveProperty("disabled", true);
    await user.type(screen.getByRole("textbox", { name: /Comment/ }), "x");
    expect(confirm).toHaveProperty("disabled", false);
  });
});

import { createTheme, decomposeColor, getOverlayAlpha, type Palette, type ThemeOptions } from "@mui/material/styles";
import { defaultDarkTheme, defaultLightTheme } from "react-admin";
import { describe, expect, it } from "vitest";
import { darkTheme, lightTheme, TOOLBAR_BACKGROUND } from "./theme.ts";

// WCAG 2.2 AA, 1.4.3: text at least 4.5:1 against what it is drawn on (docs/accessibility.md, "Back office").
const AA_TEXT = 4.5;

type Rgb = [number, number, number];

/** A colour drawn over an opaque background: its alpha blended in, as the eye (and axe) sees it. */
function over(color: string, background: Rgb): Rgb {
  const { type, values } = decomposeColor(color);
  if (!type.startsWith("rgb")) throw new Error(`not an rgb colour: ${color}`);
  const alpha = type === "rgba" ? (values[3] ?? 1) : 1;
  const blend = (i: 0 | 1 | 2) => values[i] * alpha + background[i] * (1 - alpha);
  return [blend(0), blend(1), blend(2)];
}

const opaque = (color: string): Rgb => over(color, [0, 0, 0]);

/** WCAG 2.x relative luminance. */
function luminance([r, g, b]: Rgb) {
  const linear = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2.x contrast ratio of `color` (alpha allowed) on an opaque `background`. */
export function contrastRatio(color: string, background: Rgb) {
  const [a, b] = [luminance(over(color, background)), luminance(background)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

const toHex = (rgb: Rgb) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;

/**
 * The backgrounds text is drawn on: the page, the cards, the form toolbars, a filled input hovered (where its label
 * turns primary when focused: MUI's darkest fill), and in dark mode the cards and menus lifted by MUI's white overlay
 * (elevation 1 for cards, 4 for the app bar, 8 for menus and popovers, 24 for dialogs).
 */
function backgroundsOf(palette: Palette, toolbar: string): Record<string, Rgb> {
  const paper = opaque(palette.background.paper);
  const dark = palette.mode === "dark";
  const backgrounds: Record<string, Rgb> = {
    "background.default": opaque(palette.background.default),
    "background.paper": paper,
    toolbar: opaque(toolbar),
    "filled input (hovered)": over(dark ? "rgba(255, 255, 255, 0.13)" : "rgba(0, 0, 0, 0.09)", paper),
  };
  if (palette.mode === "dark")
    for (const elevation of [1, 4, 8, 24])
      backgrounds[`paper at elevation ${elevation}`] = over(
        `rgba(255, 255, 255, ${getOverlayAlpha(elevation)})`,
        paper,
      );
  return backgrounds;
}

const INTENTS = ["primary", "secondary", "error", "warning", "info", "success"] as const;

/** Every text colour of a theme on every background it is drawn on, with its ratio. */
export function textContrasts(options: ThemeOptions, toolbar: string) {
  const { palette } = createTheme(options);
  const pairs: { text: string; on: string; ratio: number }[] = [];
  const texts: Record<string, string> = {
    "text.primary": palette.text.primary,
    "text.secondary": palette.text.secondary,
  };
  // Text buttons, links and outlined chips draw an intent's main colour as text.
  for (const intent of INTENTS) texts[`${intent}.main`] = palette[intent].main;
  for (const [on, background] of Object.entries(backgroundsOf(palette, toolbar)))
    for (const [text, color] of Object.entries(texts))
      pairs.push({ text, on, ratio: contrastRatio(color, background) });
  // Filled alerts and toasts draw MUI's chosen text on the main colour (light) or the dark one (dark mode).
  for (const intent of INTENTS)
    for (const shade of ["main", "dark"] as const)
      pairs.push({
        text: `text chosen for ${intent}.${shade}`,
        on: `${intent}.${shade}`,
        ratio: contrastRatio(palette.getContrastText(palette[intent][shade]), opaque(palette[intent][shade])),
      });
  // Contained buttons, the app bar and filled chips draw contrastText on the main colour.
  for (const intent of INTENTS)
    pairs.push({
      text: `${intent}.contrastText`,
      on: `${intent}.main`,
      ratio: contrastRatio(palette[intent].contrastText, opaque(palette[intent].main)),
    });
  return pairs;
}

const failures = (options: ThemeOptions, toolbar: string) =>
  textContrasts(options, toolbar)
    .filter(({ ratio }) => ratio < AA_TEXT)
    .map(({ text, on, ratio }) => `${text} on ${on}: ${ratio.toFixed(2)}:1`);

describe("the back office's palettes (WCAG 2.2 AA, 1.4.3)", () => {
  it("draws every light-theme text colour at 4.5:1 or more on every background", () => {
    expect(failures(lightTheme("Loading"), TOOLBAR_BACKGROUND.light)).toEqual([]);
  });

  it("draws every dark-theme text colour at 4.5:1 or more on every background", () => {
    expect(failures(darkTheme("Loading"), TOOLBAR_BACKGROUND.dark)).toEqual([]);
  });

  it("finds react-admin's own palettes under 4.5:1 (what the back office had; the check can fail)", () => {
    // react-admin's RaToolbar greys: grey[300] and grey[800].
    expect(failures(defaultLightTheme, "#e0e0e0")).toEqual(
      expect.arrayContaining([
        "secondary.main on background.paper: 3.12:1",
        "secondary.contrastText on secondary.main: 3.12:1",
        "warning.main on background.default: 2.98:1",
      ]),
    );
    expect(failures(defaultDarkTheme, "#424242")).toEqual(
      expect.arrayContaining(["error.main on background.default: 3.53:1"]),
    );
  });

  it("names every progress indicator that does not name itself", () => {
    const theme = createTheme(lightTheme("Chargement"));
    expect(theme.components?.MuiCircularProgress?.defaultProps).toMatchObject({ "aria-label": "Chargement" });
    expect(theme.components?.MuiLinearProgress?.defaultProps).toMatchObject({ "aria-label": "Chargement" });
  });

  it("changes a contained button's and a chip's colours at once, in both themes (a fade starts on the old colour)", () => {
    for (const options of [lightTheme("Loading"), darkTheme("Loading")]) {
      const theme = createTheme(options);
      const overrides = [
        theme.components?.MuiButton?.styleOverrides?.contained,
        theme.components?.MuiChip?.styleOverrides?.root,
      ];
      for (const override of overrides) {
        const style = typeof override === "function" ? override({ theme, ownerState: {} } as never) : override;
        const transition = String((style as { transition?: string } | undefined)?.transition);
        expect(transition).toMatch(/^box-shadow \d+ms/);
        expect(transition).not.toMatch(/background-color|(^|[\s,])color/);
      }
    }
  });

  it("computes contrast as WCAG does", () => {
    expect(contrastRatio("#000000", opaque("#ffffff"))).toBeCloseTo(21, 5);
    expect(contrastRatio("#777777", opaque("#ffffff"))).toBeCloseTo(4.48, 2);
    // Half-transparent black on white is the grey it looks like.
    expect(toHex(over("rgba(0, 0, 0, 0.5)", [255, 255, 255]))).toBe("#808080");
  });
});

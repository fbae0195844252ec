import type { ThemeOptions } from "@mui/material";
import { deepmerge } from "@mui/utils";
import { defaultDarkTheme, defaultLightTheme } from "react-admin";

// The back office's light and dark themes: react-admin's, with a palette whose text colours all reach WCAG 2.2 AA's
// 4.5:1 on every background they are drawn on (docs/accessibility.md, "Back office"). react-admin's own blue
// secondary (#2196f3, the app bar and its white text: 3.1:1), MUI's primary (#1976d2, every text button: 4.4:1 on the
// page), warning (#ed6c02: 3.0:1), info (#0288d1: 3.7:1), success on the form toolbar (#2e7d32 on #e0e0e0: 3.9:1) and
// dark error (#f44336 on #313131: 3.5:1) did not; the hues stay, a shade darker (lighter in dark).
// The ratios are checked by theme.test.ts.

/** The palettes' text colours, and the backgrounds they are drawn on (theme.test.ts walks both). */
export const LIGHT_PALETTE = {
  mode: "light",
  // MUI picks black or white text for a coloured background (filled alerts and toasts, on `dark` in dark mode) by
  // this ratio: its default 3 let white on #1d7fac (4.48:1) through.
  contrastThreshold: 4.5,
  background: { default: "#fafafb", paper: "#ffffff" },
  // Not only disabled controls (exempt from contrast): react-admin's empty lists and MUI's helper texts of disabled
  // fields draw text in it too (MUI's 0.38: 2.7:1).
  text: { primary: "rgba(0, 0, 0, 0.87)", secondary: "rgba(0, 0, 0, 0.6)", disabled: "rgba(0, 0, 0, 0.56)" },
  primary: { main: "#1565c0", contrastText: "#ffffff" },
  secondary: { light: "#6ec6ff", main: "#0069c0", dark: "#004a8f", contrastText: "#ffffff" },
  error: { main: "#c62828", contrastText: "#ffffff" },
  warning: { main: "#a84b00", contrastText: "#ffffff" },
  info: { main: "#01579b", contrastText: "#ffffff" },
  success: { main: "#27732b", contrastText: "#ffffff" },
} as const;

export const DARK_PALETTE = {
  mode: "dark",
  contrastThreshold: 4.5,
  background: { default: "#313131", paper: "#121212" },
  text: { primary: "#ffffff", secondary: "rgba(255, 255, 255, 0.7)", disabled: "rgba(255, 255, 255, 0.58)" },
  primary: { main: "#90caf9", contrastText: "rgba(0, 0, 0, 0.87)" },
  secondary: { main: "#ce93d8", contrastText: "rgba(0, 0, 0, 0.87)" },
  // `dark`: the filled alerts' and toasts' background in dark mode, white text on it (MUI's own shade took neither).
  error: { main: "#ff8a80", dark: "#c62828", contrastText: "rgba(0, 0, 0, 0.87)" },
  warning: { main: "#ffa726", contrastText: "rgba(0, 0, 0, 0.87)" },
  info: { main: "#29b6f6", dark: "#01579b", contrastText: "rgba(0, 0, 0, 0.87)" },
  success: { main: "#66bb6a", contrastText: "rgba(0, 0, 0, 0.87)" },
} as const;

/**
 * The form toolbars' backgrounds (react-admin's RaToolbar): its grey[300] and grey[800] took the save and delete
 * buttons' text under 4.5:1 (#1976d2 on #e0e0e0: 3.5:1); these stay apart from the card around them.
 */
export const TOOLBAR_BACKGROUND = { light: "#eeeeee", dark: "#2a2a2a" } as const;

/**
 * What react-admin and MUI both draw, whatever the mode: loading spinners named (axe's aria-progressbar-name), and
 * contained buttons whose colours change at once: MUI fades them over 250 ms, so a Save button turning from disabled
 * to enabled began as white text on the disabled grey (1.52:1 on the form toolbar) and went through paler blues
 * (2.71:1, 3.38:1) before its 5.75:1, frames axe-core caught. Their shadow still fades. Chips likewise.
 */
const shared = (loadingLabel: string): ThemeOptions => ({
  components: {
    MuiCircularProgress: { defaultProps: { "aria-label": loadingLabel } },
    MuiLinearProgress: { defaultProps: { "aria-label": loadingLabel } },
    MuiButton: {
      styleOverrides: {
        contained: ({ theme }) => ({
          transition: theme.transitions.create(["box-shadow", "border-color"], {
            duration: theme.transitions.duration.short,
          }),
        }),
      },
    },
    // A status chip turning from one colour to another (draft → pending moderation) fades its background the same
    // way: white text on a colour halfway between two shades.
    MuiChip: {
      styleOverrides: {
        root: ({ theme }) => ({
          transition: theme.transitions.create(["box-shadow"], { duration: theme.transitions.duration.short }),
        }),
      },
    },
  },
});

/** The light theme; `loadingLabel` names every progress indicator that does not name itself. */
export const lightTheme = (loadingLabel: string): ThemeOptions =>
  deepmerge(
    deepmerge(defaultLightTheme, {
      palette: LIGHT_PALETTE,
      components: { RaToolbar: { styleOverrides: { root: { backgroundColor: TOOLBAR_BACKGROUND.light } } } },
    } satisfies ThemeOptions),
    shared(loadingLabel),
  );

/** The dark theme; `loadingLabel` as for the light one. */
export const darkTheme = (loadingLabel: string): ThemeOptions =>
  deepmerge(
    deepmerge(defaultDarkTheme, {
      palette: DARK_PALETTE,
      components: { RaToolbar: { styleOverrides: { root: { backgroundColor: TOOLBAR_BACKGROUND.dark } } } },
    } satisfies ThemeOptions),
    shared(loadingLabel),
  );

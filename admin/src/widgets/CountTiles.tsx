// Live figures as a row of tiles (a description list: each tile's label, then its number in the page's language),
// six across on a wide screen, the numbers level when a label takes two lines: the waiting room's and the waiting
// list's counts.
import { Box, Typography } from "@mui/material";
import { useLocaleState } from "react-admin";
import { intlLocaleOf } from "../i18nProvider.ts";

export function CountTiles<K extends string>({
  keys,
  counts,
  label,
}: {
  keys: readonly K[];
  counts: Record<K, number>;
  label: (key: K) => string;
}) {
  const [locale] = useLocaleState();
  const number = new Intl.NumberFormat(intlLocaleOf(locale));
  return (
    <Box
      component="dl"
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(3, 1fr)", md: "repeat(6, 1fr)" },
        gap: 1,
        m: 0,
      }}
    >
      {keys.map((key) => (
        <Box
          key={key}
          sx={{
            border: 1,
            borderColor: "divider",
            borderRadius: 1,
            p: 1.5,
            display: "flex",
            flexDirection: "column",
            justifyContent: "space-between",
          }}
        >
          <Typography component="dt" variant="body2" color="text.secondary">
            {label(key)}
          </Typography>
          <Typography component="dd" variant="h5" sx={{ m: 0, fontVariantNumeric: "tabular-nums" }}>
            {number.format(counts[key])}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

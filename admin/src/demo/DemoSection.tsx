import { Paper, Stack, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { useTranslate } from "react-admin";

/** One group of widgets on a demo page, under its heading. */
export const DemoSection = ({ title, children }: { title: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Paper component="section" aria-label={translate(title)} sx={{ p: 2 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {translate(title)}
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: "wrap", alignItems: "flex-start" }}>
        {children}
      </Stack>
    </Paper>
  );
};

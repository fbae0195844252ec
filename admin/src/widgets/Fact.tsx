// One fact of a settings summary on a line: its label muted, then its value (the waiting room's and the waiting
// list's live panels).
import { Box, Typography } from "@mui/material";
import type { ReactNode } from "react";

export const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <Typography variant="body2">
    <Box component="span" sx={{ color: "text.secondary" }}>
      {label}
    </Box>{" "}
    {children}
  </Typography>
);

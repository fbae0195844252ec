import { Button, CircularProgress } from "@mui/material";
import { useTranslate } from "react-admin";

/** The submit button of the auth forms: disabled with a spinner while the call is under way. */
export const SubmitButton = ({ label, isSubmitting }: { label: string; isSubmitting: boolean }) => {
  const translate = useTranslate();
  return (
    <Button
      type="submit"
      variant="contained"
      fullWidth
      disabled={isSubmitting}
      startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
      sx={{ mt: 1 }}
    >
      {translate(label)}
    </Button>
  );
};

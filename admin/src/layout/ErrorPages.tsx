import { Box, Button, Typography } from "@mui/material";
import { type ErrorProps, Title, useBasename, useEditContext, useTranslate } from "react-admin";
import { Link as RouterLink } from "react-router";
import { type ErrorPageContent, errorPageOf } from "./errorPage.ts";

/** `hasTitle`: sets the app bar's title (an Edit view's error already has the resource's title). */
const ErrorPage = ({ content, hasTitle = true }: { content: ErrorPageContent; hasTitle?: boolean }) => {
  const translate = useTranslate();
  const basename = useBasename();
  const title = translate(content.title, content.options);
  return (
    <Box sx={{ p: 4, textAlign: "center" }} role="alert">
      {hasTitle && <Title title={title} />}
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      {content.text && <Typography sx={{ mb: 2 }}>{translate(content.text)}</Typography>}
      <Button component={RouterLink} to={`${basename}/`} variant="outlined">
        {translate("admin.errorPages.home")}
      </Button>
    </Box>
  );
};

/** react-admin's `catchAll`: an unknown route. */
export const PageNotFound = () => <ErrorPage content={{ title: "admin.errorPages.pageNotFound" }} />;

/** A guard's refusal (docs/specification.md §6: the superuser-only route guard). */
export const AccessDeniedPage = () => <ErrorPage content={errorPageOf(403)} />;

/** An Edit view's `error`: the page of the load's HTTP status. */
export const HttpErrorPage = () => {
  const { error } = useEditContext();
  const status = (error as { status?: number } | null)?.status;
  return <ErrorPage content={errorPageOf(status)} hasTitle={false} />;
};

/**
 * react-admin's `error` (its layout's ErrorBoundary, reset when the location changes): an exception
 * in the browser.
 */
export const UnexpectedErrorPage = (_props: ErrorProps) => (
  <ErrorPage content={{ title: "admin.errorPages.unexpected" }} />
);

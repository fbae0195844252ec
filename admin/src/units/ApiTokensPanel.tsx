import AddIcon from "@mui/icons-material/Add";
import BlockIcon from "@mui/icons-material/Block";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  IconButton,
  InputAdornment,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  type Theme,
  Tooltip,
  Typography,
  useMediaQuery,
} from "@mui/material";
import { API_TOKEN_SCOPES, type ApiTokenScope } from "@ticketing/shared/api-scopes";
import type { ApiToken, CreatedApiToken } from "@ticketing/shared/schemas/api-tokens";
import type { Unit } from "@ticketing/shared/schemas/units";
import { type FormEvent, useId, useState } from "react";
import { useDataProvider, useGetList, useLocaleState, useNotify, useRecordContext, useTranslate } from "react-admin";
import { TO_THE_MINUTE } from "../fields/dateTime.ts";
import { intlLocaleOf } from "../i18nProvider.ts";
import { PromptDialog } from "../widgets/PromptDialog.tsx";
import { useUnitPermissions } from "./UnitEdit.tsx";

/** The API's path of the unit's tokens, as a react-admin resource (GET, POST, DELETE /:tokenId). */
export const apiTokensResource = (unitId: Unit["id"]) => `units/${unitId}/api-tokens`;

const errorMessageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : "admin.errors.unexpected";

const useMoment = () => {
  const [locale] = useLocaleState();
  return (iso: string) => new Date(iso).toLocaleString(intlLocaleOf(locale), TO_THE_MINUTE);
};

/** The token, once: to copy, with the warning that it is never shown again. */
export const NewToken = ({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      notify("admin.units.apiTokens.copied", { type: "info" });
    } catch {
      notify("admin.errors.unexpected", { type: "error" });
    }
  };
  return (
    <>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate("admin.units.apiTokens.shownOnce")}
        </Alert>
        <TextField
          label={created.name}
          value={created.token}
          fullWidth
          multiline
          slotProps={{
            htmlInput: {
              readOnly: true,
              spellCheck: false,
              style: { fontFamily: "monospace", wordBreak: "break-all" },
            },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={translate("admin.units.apiTokens.copy")}>
                    <IconButton aria-label={translate("admin.units.apiTokens.copy")} onClick={copy} edge="end">
                      <ContentCopyIcon />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onDone}>
          {translate("admin.units.apiTokens.done")}
        </Button>
      </DialogActions>
    </>
  );
};

/** The creation dialog: a name and the scopes; then the token, shown this once. */
const CreateTokenDialog = ({ unitId, onClose }: { unitId: Unit["id"]; onClose: (created: boolean) => void }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const titleId = useId();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiTokenScope[]>([]);
  const [isPending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const isValid = name.trim() !== "" && scopes.length > 0;
  const toggle = (scope: ApiTokenScope, on: boolean) =>
    setScopes((current) => API_TOKEN_SCOPES.filter((s) => (s === scope ? on : current.includes(s))));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation(); // the dialog sits in a portal: its submit must not reach the unit's form
    if (!isValid) return;
    setPending(true);
    setError(null);
    try {
      const { data } = await dataProvider.create(apiTokensResource(unitId), { data: { name: name.trim(), scopes } });
      setCreated(data as unknown as CreatedApiToken);
    } catch (failure) {
      setError(errorMessageOf(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open onClose={() => onClose(created !== null)} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>
        {translate(created ? "admin.units.apiTokens.createdTitle" : "admin.units.apiTokens.createTitle")}
      </DialogTitle>
      {created ? (
        <NewToken created={created} onDone={() => onClose(true)} />
      ) : (
        <form onSubmit={submit} noValidate>
          <DialogContent>
            {error && (
              <Alert severity="error" sx={{ mb: 2 }}>
                {translate(error, { _: error })}
              </Alert>
            )}
            <TextField
              label={translate("admin.units.apiTokens.name")}
              helperText={translate("admin.units.apiTokens.nameHelp")}
              value={name}
              onChange={(event) => setName(event.target.value)}
              required
              fullWidth
              autoFocus
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
            <FormControl component="fieldset" sx={{ mt: 2 }} required>
              <FormLabel component="legend">{translate("admin.units.apiTokens.scopesLegend")}</FormLabel>
              <FormGroup>
                {API_TOKEN_SCOPES.map((scope) => (
                  <FormControlLabel
                    key={scope}
                    control={
                      <Checkbox
                        checked={scopes.includes(scope)}
                        onChange={(event) => toggle(scope, event.target.checked)}
                        name={`scope-${scope}`}
                      />
                    }
                    label={translate(`admin.units.apiTokens.scope.${scope}`)}
                  />
                ))}
              </FormGroup>
            </FormControl>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => onClose(false)}>{translate("ra.action.cancel")}</Button>
            <Button type="submit" variant="contained" disabled={!isValid || isPending}>
              {isPending ? <CircularProgress size={20} /> : translate("admin.units.apiTokens.create")}
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
};

const RevokeButton = ({ unitId, token, onRevoked }: { unitId: Unit["id"]; token: ApiToken; onRevoked: () => void }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const [isOpen, setOpen] = useState(false);
  const [isPending, setPending] = useState(false);
  const confirm = async () => {
    setPending(true);
    try {
      await dataProvider.delete(apiTokensResource(unitId), { id: token.id, previousData: token });
      notify("admin.units.apiTokens.revoked", { type: "success" });
      onRevoked();
    } catch (error) {
      notify(errorMessageOf(error), { type: "error" });
    } finally {
      setPending(false);
      setOpen(false);
    }
  };
  const label = translate("admin.units.apiTokens.revoke", { name: token.name });
  return (
    <>
      <Tooltip title={label}>
        <IconButton aria-label={label} onClick={() => setOpen(true)} disabled={isPending} color="error">
          <BlockIcon />
        </IconButton>
      </Tooltip>
      {isOpen && (
        <PromptDialog
          isOpen
          isPending={isPending}
          title="admin.units.apiTokens.revokeTitle"
          message="admin.units.apiTokens.revokeConfirm"
          messageArgs={{ name: token.name }}
          confirmLabel="admin.units.apiTokens.revokeLabel"
          isDangerous
          onAnswer={(answer) => (answer ? confirm() : setOpen(false))}
        />
      )}
    </>
  );
};

interface TokensProps {
  unitId: Unit["id"];
  tokens: ApiToken[];
  onChange: () => void;
}

const useWords = () => {
  const translate = useTranslate();
  return (key: string, options?: Record<string, unknown>) => translate(`admin.units.apiTokens.${key}`, options);
};

const ScopeChips = ({ token }: { token: ApiToken }) => {
  const t = useWords();
  return (
    <Box sx={{ display: "flex", gap: 0.5, flexWrap: "wrap" }}>
      {token.scopes.map((scope) => (
        <Chip key={scope} size="small" label={t(`scope.${scope}`)} />
      ))}
    </Box>
  );
};

/** On a phone: one block per token, the same facts one under the other. */
export const TokenCards = ({ unitId, tokens, onChange }: TokensProps) => {
  const t = useWords();
  const moment = useMoment();
  return (
    <Box component="ul" sx={{ listStyle: "none", p: 0, m: 0 }}>
      {tokens.map((token) => (
        <Box
          component="li"
          key={token.id}
          sx={{
            py: 1.5,
            borderBottom: 1,
            borderColor: "divider",
            color: token.revokedAt ? "text.secondary" : undefined,
          }}
        >
          <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 1 }}>
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="subtitle2" component="p" sx={{ overflowWrap: "anywhere" }}>
                {token.name}
              </Typography>
              <Typography variant="body2" component="p" sx={{ fontFamily: "monospace" }}>
                {`${token.prefix}…`}
              </Typography>
            </Box>
            {!token.revokedAt && <RevokeButton unitId={unitId} token={token} onRevoked={onChange} />}
          </Box>
          <Box sx={{ my: 0.5 }}>
            <ScopeChips token={token} />
          </Box>
          <Typography variant="body2" component="p">
            {t("createdOn", { date: moment(token.createdAt) })}
          </Typography>
          <Typography variant="body2" component="p">
            {token.lastUsedAt ? t("lastUsedOn", { date: moment(token.lastUsedAt) }) : t("neverUsed")}
          </Typography>
          <Typography variant="body2" component="p">
            {token.revokedAt ? t("revokedOn", { date: moment(token.revokedAt) }) : t("active")}
          </Typography>
        </Box>
      ))}
    </Box>
  );
};

/** The unit's tokens: name, prefix, scopes, when created and last used, revoked or not. */
export const TokenTable = ({ unitId, tokens, onChange }: TokensProps) => {
  const t = useWords();
  const moment = useMoment();
  return (
    <TableContainer sx={{ overflowX: "auto" }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t("name")}</TableCell>
            <TableCell>{t("prefix")}</TableCell>
            <TableCell>{t("scopes")}</TableCell>
            <TableCell>{t("created")}</TableCell>
            <TableCell>{t("lastUsed")}</TableCell>
            <TableCell>{t("status")}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {tokens.map((token) => (
            <TableRow key={token.id} sx={token.revokedAt ? { "& td": { color: "text.secondary" } } : undefined}>
              <TableCell>{token.name}</TableCell>
              <TableCell sx={{ fontFamily: "monospace", whiteSpace: "nowrap" }}>{`${token.prefix}…`}</TableCell>
              <TableCell>
                <ScopeChips token={token} />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{moment(token.createdAt)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {token.lastUsedAt ? moment(token.lastUsedAt) : t("never")}
              </TableCell>
              <TableCell>{token.revokedAt ? t("revokedOn", { date: moment(token.revokedAt) }) : t("active")}</TableCell>
              <TableCell padding="checkbox">
                {!token.revokedAt && <RevokeButton unitId={unitId} token={token} onRevoked={onChange} />}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

/**
 * The unit's API tokens (docs/decisions/0044), for its owners and superusers: the list, a new token shown once, and
 * revoking one; members are told only owners manage them (the API refuses them with 403).
 */
export const ApiTokensPanel = () => {
  const unit = useRecordContext<Unit>();
  const translate = useTranslate();
  const headingId = useId();
  const { canEdit } = useUnitPermissions();
  const [isCreating, setCreating] = useState(false);
  const isPhone = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  const { data, isPending, error, refetch } = useGetList<ApiToken>(
    unit ? apiTokensResource(unit.id) : "api-tokens",
    { sort: { field: "id", order: "DESC" }, pagination: { page: 1, perPage: 200 } },
    { enabled: unit !== undefined && canEdit },
  );
  if (!unit) return null;
  return (
    // The last panel of the page: room below it on a phone, where the unit form's toolbar is fixed to the bottom.
    <Box component="section" aria-labelledby={headingId} sx={{ p: 2, pb: { xs: 10, sm: 2 } }}>
      <Typography variant="h6" component="h2" id={headingId} gutterBottom>
        {translate("admin.units.apiTokens.title")}
      </Typography>
      {!canEdit ? (
        <Typography variant="body2">{translate("admin.units.apiTokens.ownersOnly")}</Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" gutterBottom sx={{ maxWidth: 720 }}>
            {translate("admin.units.apiTokens.intro")}
          </Typography>
          {isPending && <CircularProgress size={24} />}
          {error && <Alert severity="error">{translate("admin.units.apiTokens.loadFailed")}</Alert>}
          {data && data.length === 0 && (
            <Typography variant="body2" sx={{ my: 1 }}>
              {translate("admin.units.apiTokens.none")}
            </Typography>
          )}
          {data &&
            data.length > 0 &&
            (isPhone ? (
              <TokenCards unitId={unit.id} tokens={data} onChange={() => refetch()} />
            ) : (
              <TokenTable unitId={unit.id} tokens={data} onChange={() => refetch()} />
            ))}
          <Button startIcon={<AddIcon />} variant="outlined" sx={{ mt: 2 }} onClick={() => setCreating(true)}>
            {translate("admin.units.apiTokens.create")}
          </Button>
          {isCreating && (
            <CreateTokenDialog
              unitId={unit.id}
              onClose={(created) => {
                setCreating(false);
                if (created) refetch();
              }}
            />
          )}
        </>
      )}
    </Box>
  );
};

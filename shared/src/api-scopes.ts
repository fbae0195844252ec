// What an API token of a unit may do (issue 35): each back-office route that a token may call names the one scope
// it needs (api/src/lib/route.ts `scope`); a token without it gets 403, and a route that names none is for signed-in
// staff only.

/** `read`: events and sales; `check_in`: scan and sync tickets at the door; `manage`: change events. */
export const API_TOKEN_SCOPES = ["read", "check_in", "manage"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

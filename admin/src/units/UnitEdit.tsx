import type { Unit } from "@ticketing/shared/schemas/units";
import {
  Edit,
  email,
  required,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  useGetIdentity,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { HttpErrorPage } from "../layout/ErrorPages.tsx";
import { AlertBanner } from "../widgets/AlertBanner.tsx";
import { NumberInput } from "../widgets/NumberInput.tsx";
import { ApiTokensPanel } from "./ApiTokensPanel.tsx";
import { MembershipsPanel } from "./MembershipsPanel.tsx";
import { StripePanel } from "./StripePanel.tsx";
import { WebhooksPanel } from "./WebhooksPanel.tsx";

/** docs/api.md: owners and superusers change a unit; members only read it. */
export function useUnitPermissions() {
  const record = useRecordContext<Unit>();
  const { identity } = useGetIdentity();
  const isSuperuser = identity?.isSuperuser === true;
  const isOwner = record?.currentUserRole === "owner";
  return { isSuperuser, isOwner, canEdit: isOwner || isSuperuser };
}

const UnitForm = () => {
  const translate = useTranslate();
  const { isSuperuser, canEdit } = useUnitPermissions();
  const readOnly = !canEdit;
  return (
    <>
      {readOnly && (
        <AlertBanner state="information" isAutoClosing={false} sx={{ m: 2, mb: 0 }}>
          {translate("admin.units.readOnly")}
        </AlertBanner>
      )}
      {/* No delete: the API has no DELETE /units/:id. */}
      <SimpleForm
        toolbar={
          readOnly ? (
            false
          ) : (
            <Toolbar>
              <SaveButton />
            </Toolbar>
          )
        }
      >
        <TextInput source="name" validate={required()} readOnly={readOnly} />
        <TextInput source="description" multiline minRows={2} fullWidth readOnly={readOnly} />
        <TextInput source="email" type="email" validate={email()} readOnly={readOnly} />
        <TextInput source="address" multiline minRows={2} fullWidth readOnly={readOnly} />
        <TextInput source="iban" readOnly={readOnly} />
        <TextInput source="payoutAccountHolder" readOnly={readOnly} />
        {/* cents and hundredths of a percent; superusers only (the API answers 403 otherwise) */}
        <NumberInput source="agentBaseFees" readOnly={!isSuperuser} step={1} min={0} />
        <NumberInput source="agentFees" readOnly={!isSuperuser} step={1} min={0} />
      </SimpleForm>
    </>
  );
};

export const UnitEdit = () => (
  <Edit
    mutationMode="pessimistic"
    redirect={false}
    // A unit the user may not see answers 404: show the error page rather than going back to the list.
    queryOptions={{ onError: () => undefined }}
    error={<HttpErrorPage />}
  >
    <UnitForm />
    <StripePanel />
    <WebhooksPanel />
    <MembershipsPanel />
    <ApiTokensPanel />
  </Edit>
);

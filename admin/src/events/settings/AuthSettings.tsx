import { ACCESS_METHODS } from "@ticketing/shared/constants";
import type { Event } from "@ticketing/shared/schemas/events";
import { CheckboxGroupInput, FormDataConsumer, SimpleForm, TextInput } from "react-admin";
import { useIsLocked } from "../EventLock.tsx";
import { SaveToolbar } from "../EventSubPages.tsx";
import { SettingsFrame } from "./SettingsFrame.tsx";

const accessMethodChoices = ACCESS_METHODS.map((method) => ({ id: method, name: `admin.accessMethods.${method}` }));

/** docs/specification.md §5: choose at least one authentication method. */
export const validateAccessMethods = (value: unknown) =>
  Array.isArray(value) && value.length > 0 ? undefined : "admin.validation.accessMethods";

const AuthForm = () => {
  const isLocked = useIsLocked();
  return (
    <SimpleForm toolbar={isLocked ? false : <SaveToolbar />}>
      <CheckboxGroupInput
        source="accessMethods"
        choices={accessMethodChoices}
        validate={validateAccessMethods}
        readOnly={isLocked}
        disabled={isLocked}
      />
      {/* The key the third party signs its login tokens with: the API makes it when the method is first saved. */}
      <FormDataConsumer<Event>>
        {({ formData }) =>
          formData.accessMethods?.includes("third_party") && formData.thirdPartySecretKey ? (
            <TextInput
              source="thirdPartySecretKey"
              label="admin.settings.thirdPartySecretKey"
              helperText="admin.settings.thirdPartySecretKeyHelp"
              readOnly
              fullWidth
            />
          ) : null
        }
      </FormDataConsumer>
    </SimpleForm>
  );
};

/**
 * docs/specification.md §2.2 `settings/auth`: how buyers sign in to the ticket office (docs/design.md §4
 * "Ticket-office logins").
 */
export const AuthSettings = () => (
  <SettingsFrame page="auth">
    <AuthForm />
  </SettingsFrame>
);

import { Create, email, required, SimpleForm, TextInput } from "react-admin";

/** `POST /units`: the creator becomes its owner. */
export const UnitCreate = () => (
  <Create redirect="edit" mutationMode="pessimistic">
    <SimpleForm>
      <TextInput source="name" validate={required()} />
      <TextInput source="description" multiline minRows={2} fullWidth />
      <TextInput source="email" type="email" validate={email()} />
    </SimpleForm>
  </Create>
);

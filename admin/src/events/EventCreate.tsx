import { Create, Loading, SimpleForm, useGetList } from "react-admin";
import { EventFormInputs, UNIT_LIST_PARAMS } from "./EventFormInputs.tsx";

export const EventCreate = () => {
  // The form's default unit is the first of `GET /units`; the form waits for it so the default applies.
  const { data: units, isPending } = useGetList("units", UNIT_LIST_PARAMS);
  return (
    <Create redirect="edit" mutationMode="pessimistic">
      {isPending ? (
        <Loading />
      ) : (
        <SimpleForm defaultValues={{ unitId: units?.[0]?.id }}>
          <EventFormInputs />
        </SimpleForm>
      )}
    </Create>
  );
};

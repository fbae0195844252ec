import EventIcon from "@mui/icons-material/Event";
import { EventCreate } from "./EventCreate.tsx";
import { EventEdit } from "./EventEdit.tsx";
import { EventList } from "./EventList.tsx";

export default {
  list: EventList,
  edit: EventEdit,
  create: EventCreate,
  icon: EventIcon,
  recordRepresentation: "name",
};

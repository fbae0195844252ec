import EventIcon from "@mui/icons-material/Event";
import { lazyScreen } from "../lazyScreen.ts";

// No `edit`: react-admin would route `:id/*` to it, so any sub-path of an event (`/events/1/nope`) showed the
// editor. The event's pages are App.tsx's routes instead; `hasEdit` keeps react-admin's edit links (`/events/1`,
// which redirects to the editor).
export default {
  list: lazyScreen(() => import("./EventList.tsx"), "EventList"),
  create: lazyScreen(() => import("./EventCreate.tsx"), "EventCreate"),
  hasEdit: true,
  icon: EventIcon,
  recordRepresentation: "name",
};

import { data } from "react-router";

export function loader() {
  throw data(null, { status: 404 });
}

// The root error boundary renders "Page not found".
export default function NotFound() {
  return null;
}

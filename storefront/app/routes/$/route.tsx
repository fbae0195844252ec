export { loader } from "./route.server";

// The root error boundary renders "Page not found" (or the status's page).
export default function NotFound() {
  return null;
}

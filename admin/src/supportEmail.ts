import { useEffect, useState } from "react";
import { useDataProvider } from "react-admin";
import type { TicketingDataProvider } from "./dataProvider.ts";

let supportEmail: Promise<string> | null = null;

/** `GET /config`'s support address (docs/design.md §8 `SUPPORT_EMAIL`), fetched once per page load. */
export function useSupportEmail(): string | null {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    supportEmail ??= dataProvider.getConfig().then(({ data }) => data.supportEmail);
    let isCurrent = true;
    supportEmail.then(
      (address) => isCurrent && setEmail(address),
      () => {
        supportEmail = null; // try again next time
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [dataProvider]);
  return email;
}

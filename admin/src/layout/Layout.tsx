import AccountCircleIcon from "@mui/icons-material/AccountCircle";
import LockResetIcon from "@mui/icons-material/LockReset";
import type { ReactNode } from "react";
import {
  AppBar,
  LoadingIndicator,
  Logout,
  MenuItemLink,
  Layout as RaLayout,
  ToggleThemeButton,
  UserMenu,
  useBasename,
  useGetIdentity,
  useTranslate,
  useUserMenu,
} from "react-admin";
import { UnexpectedErrorPage } from "./ErrorPages.tsx";
import { LanguageSwitch } from "./LanguageSwitch.tsx";
import { Menu } from "./Menu.tsx";

/** A user menu entry that closes the menu when followed. */
const UserMenuLink = ({ to, label, icon }: { to: string; label: string; icon: ReactNode }) => {
  const userMenu = useUserMenu();
  const basename = useBasename();
  const translate = useTranslate();
  return (
    <MenuItemLink
      to={`${basename}${to}`}
      primaryText={translate(label)}
      leftIcon={icon}
      onClick={() => userMenu?.onClose()}
    />
  );
};

// The button shows the user's name: its accessible name is that name too (WCAG 2.5.3, label in name), not "Profile".
const AccountMenu = () => {
  const { identity } = useGetIdentity();
  return (
    <UserMenu label={identity?.fullName ?? "ra.auth.user_menu"}>
      <UserMenuLink to="/users/me" label="admin.users.me" icon={<AccountCircleIcon />} />
      <UserMenuLink to="/auth/password-change" label="admin.auth.passwordChange.title" icon={<LockResetIcon />} />
      <Logout />
    </UserMenu>
  );
};

const AppBarWithLanguage = () => (
  <AppBar
    userMenu={<AccountMenu />}
    toolbar={
      <>
        <LanguageSwitch />
        {/* docs/specification.md §4 / §9: light or dark, from the system until toggled, kept under `theme` */}
        <ToggleThemeButton />
        <LoadingIndicator />
      </>
    }
  />
);

// `error`: the page's own error boundary (around every screen, and what a screen whose chunk is missing throws)
// shows the back office's error page; <Admin error> is only for what fails outside the layout.
export const Layout = ({ children }: { children: ReactNode }) => (
  <RaLayout appBar={AppBarWithLanguage} menu={Menu} error={UnexpectedErrorPage}>
    {children}
  </RaLayout>
);

"use client";

import { BookOpenTextIcon, LogOutIcon, UserRoundIcon, UsersIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { ThemeToggle } from "./theme-toggle";

/** Who is signed in, as the header shows them. */
export interface HeaderUser {
  name: string;
  email: string;
  role: "owner" | "member" | "viewer";
}

function UserMenu({ user, signOut }: { user: HeaderUser; signOut: () => Promise<void> }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" data-testid="user-menu" aria-label={`Account: ${user.name}`}>
          <UserRoundIcon aria-hidden />
          <span className="hidden max-w-40 truncate sm:inline">{user.name}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel className="space-y-0.5">
          <span className="block truncate text-foreground">{user.email}</span>
          <span className="block font-normal" data-testid="user-role">
            {user.role === "owner" ? "Owner" : user.role === "member" ? "Member" : "Viewer"}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {user.role === "owner" && (
          <DropdownMenuItem asChild>
            <Link href="/people" data-testid="nav-people">
              <UsersIcon aria-hidden />
              People
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem onSelect={() => void signOut()} data-testid="sign-out">
          <LogOutIcon aria-hidden />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const nav = [
  { href: "/", label: "Library", isActive: (p: string) => p === "/" || p.startsWith("/papers") },
  { href: "/research", label: "Research", isActive: (p: string) => p.startsWith("/research") },
  { href: "/search", label: "Search", isActive: (p: string) => p.startsWith("/search") },
  { href: "/graph", label: "Graph", isActive: (p: string) => p.startsWith("/graph") },
] as const;

/** The header: the app's sections and the account menu for a signed-in person; only the wordmark otherwise. */
export function SiteHeader({ user, signOut }: { user: HeaderUser | null; signOut: () => Promise<void> }) {
  const pathname = usePathname() ?? "/";
  // a reader of a share link without an account: the wordmark leads back to the shared run, not to the sign-in page
  const home = !user && pathname.startsWith("/s/") ? pathname.split("/").slice(0, 3).join("/") : "/";
  return (
    <header className="sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <a
        href="#main"
        className="sr-only rounded-md bg-primary px-3 py-2 text-primary-foreground focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-1.5 px-3 sm:gap-6 sm:px-6">
        <Link
          href={home}
          className="flex items-center gap-2 rounded-md font-semibold text-lg tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          data-testid="wordmark"
        >
          <BookOpenTextIcon className="size-5 text-primary" aria-hidden />
          {/* on a phone the sections need the width: the name is for screen readers there */}
          <span className="sr-only font-serif sm:not-sr-only">Lectern</span>
        </Link>
        {user && (
          <nav aria-label="Main" className="-my-1 flex min-w-0 items-center gap-0.5 overflow-x-auto py-1 sm:gap-1">
            {nav.map((item) => {
              const active = item.isActive(pathname);
              return (
                <Link
                  key={item.href}
                  href={item.href}
                  aria-current={active ? "page" : undefined}
                  data-testid={`nav-${item.label.toLowerCase()}`}
                  className={cn(
                    "shrink-0 rounded-md px-1.5 py-1.5 font-medium text-sm sm:px-3 outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50",
                    active
                      ? "bg-secondary text-foreground"
                      : "text-muted-foreground hover:bg-accent/60 hover:text-foreground",
                  )}
                >
                  {item.label}
                </Link>
              );
            })}
          </nav>
        )}
        <div className="ml-auto flex items-center gap-1">
          <ThemeToggle />
          {user && <UserMenu user={user} signOut={signOut} />}
        </div>
      </div>
    </header>
  );
}

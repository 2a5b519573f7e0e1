import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { ThemeProvider } from "next-themes";
import type * as React from "react";
import { SiteHeader } from "@/components/layout/site-header";
import { Providers } from "@/components/providers";
import { signOutAction } from "./(auth)/actions";
import { currentUser } from "./access";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Lectern", template: "%s · Lectern" },
  description: "A research assistant over your library of research papers.",
  icons: { icon: { url: "/icon.svg", type: "image/svg+xml" } },
  // The card shown where a link to the app is shared (a run page sets its question as the title). No metadataBase:
  // the app does not know the address it is reached at, so Next makes the image's URL absolute with its fallback,
  // http://localhost:$PORT — right for the app run locally — and says so once in the server's log.
  openGraph: {
    siteName: "Lectern",
    type: "website",
    images: [
      {
        url: "/og-image.png",
        width: 1200,
        height: 630,
        alt: "Lectern: answers from your own research papers, every claim cited to its page",
      },
    ],
  },
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#fcfcfb" },
    { media: "(prefers-color-scheme: dark)", color: "#1a1c22" },
  ],
};

/** The signed-in person for the header; none when the database cannot be reached (the page itself says why). */
async function headerUser() {
  try {
    const user = await currentUser();
    return user ? { name: user.name, email: user.email, role: user.role } : null;
  } catch {
    return null;
  }
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const user = await headerUser();
  // next-themes' inline script (the theme before hydration) needs the request's CSP nonce (proxy.ts) to run
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // next-themes sets the class on <html> before hydration, so the server's markup differs there by design.
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-dvh">
        <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce}>
          <Providers>
            <SiteHeader user={user} signOut={signOutAction} />
            <main id="main" className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6">
              {children}
            </main>
          </Providers>
        </ThemeProvider>
      </body>
    </html>
  );
}

"use client";

import { isServer, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type * as React from "react";
import { z } from "zod";
import { TooltipProvider } from "@/components/ui/tooltip";

// Zod compiles object parsers with `new Function` when it may; its probe for that is an eval, which the pages'
// Content-Security-Policy refuses (no 'unsafe-eval', proxy.ts) and reports as a violation. Parse without it.
z.config({ jitless: true });

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Server components hand over fresh data; don't refetch it the moment the page hydrates.
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: 1,
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/** One client per request on the server, one for the lifetime of the page in the browser. */
function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

export function Providers({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>{children}</TooltipProvider>
    </QueryClientProvider>
  );
}

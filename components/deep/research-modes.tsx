"use client";

import { MessageSquareTextIcon, WaypointsIcon } from "lucide-react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

export type ResearchMode = "quick" | "deep";

/**
 * Quick answer or deep research, as tabs over the question box. The deep tab stays mounted while hidden, so a plan
 * being made (clarifications, an edited outline) survives a look at the other tab.
 */
export function ResearchModes({
  mode,
  onModeChange,
  quick,
  deep,
}: {
  mode: ResearchMode;
  onModeChange: (mode: ResearchMode) => void;
  quick: React.ReactNode;
  deep: React.ReactNode;
}) {
  return (
    <Tabs
      value={mode}
      onValueChange={(v) => onModeChange(v === "deep" ? "deep" : "quick")}
      data-testid="research-modes"
    >
      <TabsList aria-label="Research mode">
        <TabsTrigger value="quick" data-testid="mode-quick">
          <MessageSquareTextIcon aria-hidden />
          Quick answer
        </TabsTrigger>
        <TabsTrigger value="deep" data-testid="mode-deep">
          <WaypointsIcon aria-hidden />
          Deep research
        </TabsTrigger>
      </TabsList>
      <TabsContent value="quick">{quick}</TabsContent>
      <TabsContent value="deep" forceMount>
        {deep}
      </TabsContent>
    </Tabs>
  );
}

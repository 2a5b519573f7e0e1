import { MessagesSquareIcon } from "lucide-react";
import type { Metadata } from "next";
import { NoticePage } from "@/components/layout/notice-page";

export const metadata: Metadata = { title: "Research" };

export default function ResearchPage() {
  return (
    <NoticePage
      testId="research-unavailable"
      icon={MessagesSquareIcon}
      title="Research is not available yet"
      description="Asking questions across your papers, with cited answers and the research steps shown as they happen, is being built. Your library already works: upload papers there and read them at the page."
    />
  );
}

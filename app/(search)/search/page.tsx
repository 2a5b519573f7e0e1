import { SearchIcon } from "lucide-react";
import type { Metadata } from "next";
import { NoticePage } from "@/components/layout/notice-page";

export const metadata: Metadata = { title: "Search" };

export default function SearchPage() {
  return (
    <NoticePage
      testId="search-unavailable"
      icon={SearchIcon}
      title="Search is not available yet"
      description="Searching the text of your papers passage by passage is being built. Until then, the library can filter papers by title and author."
    />
  );
}

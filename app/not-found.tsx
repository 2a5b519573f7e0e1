import { FileQuestionIcon } from "lucide-react";
import { NoticePage } from "@/components/layout/notice-page";

export default function NotFound() {
  return (
    <NoticePage
      testId="not-found"
      icon={FileQuestionIcon}
      title="Not found"
      description="There is no page here — or the paper was removed from the library."
    />
  );
}

import { emphasize, type TermMatcher } from "./emphasis";

/** Text with the query's words in <mark>. Whitespace (PDF line breaks) reads as spaces. */
export function EmphasizedText({ text, matcher }: { text: string; matcher: TermMatcher }) {
  return (
    <>
      {emphasize(text, matcher).map((segment, i) =>
        segment.match ? (
          <mark key={i} className="rounded-[3px] bg-highlight px-px text-inherit" data-testid="term-match">
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

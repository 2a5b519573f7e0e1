#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout.json and check the set.

answers-heldout.json is a held-out set for *offline answer quality*, written 2026-11-26 before
the answer code was changed. Its question writer did not read lib/, app/ or components/.

    python3 bench/questions/draw-answers-heldout.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261126, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json or heldout-2.json, if it was drawn
   before, or if it is in REJECTED_PAGES (judged by reading the page: reference list, mostly a
   table / figure, table of contents, no prose sentence stating a fact). Draw until 16 are kept.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   in REJECTED_PAIRS (no clear use / extension / comparison in the text) are skipped; the first 4
   are kept. The evidence page in each paper was then chosen by hand: a page (not already evidence
   anywhere) where the citing paper uses / compares to the other, and the other paper's page that
   states the fact the question joins to it.
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0).
4. if answers-heldout.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

SEED = 20261126
N_SINGLE = 16
N_PAIRS = 4
HERE = os.path.dirname(os.path.abspath(__file__))

# Pages drawn but not usable (read by hand on 2026-11-26).
REJECTED_PAGES = {
    ("2310.07609", 8): "reference list only",
    ("tacl2024-self-correction-survey", 5): "mostly Table 1 (list of methods); little prose",
    ("2501.12948", 2): "table of contents",
    ("tacl2024-self-correction-survey", 6): "mostly Table 2 (list of methods); little prose",
    ("2012.13255", 11): "equations only, no prose sentence stating a fact",
}

# Candidate pairs drawn but not used: the title match is only a citation.
REJECTED_PAIRS = {
    ("2005.11401", "2401.18059"): "RAPTOR names RAG only in a related-work list",
    ("1810.04805", "2106.09685"): "LoRA cites BERT only in its references (experiments use RoBERTa/DeBERTa/GPT)",
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "AN1": ["quadruped", "legged", "locomotion", "sim-to-real", "domain randomization"],
    "AN2": ["watermark", "green list", "green-list"],
    "AN3": ["graphcast", "era5", "reanalysis", "medium-range", "ecmwf"],
    "AN4": ["lidar", "point cloud", "bird's-eye", "bird’s-eye", "3d object detection", "autonomous driving"],
}

EXISTING = [
    "{corpus}/dev-questions.json",
    os.path.join(HERE, "heldout.json"),
    os.path.join(HERE, "heldout-2.json"),
]

# Synthesis pairs of these sets are skipped in the pair draw (none for this set: it was the first).
USED_PAIRS_FROM = []

# The set this script draws and checks.
SET_FILE = os.path.join(HERE, "answers-heldout.json")


def norm(s):
    return re.sub(r"\s+", " ", s).strip().lower()


def page_text(corpus, paper, n, _cache={}):
    key = (paper["id"], n)
    if key not in _cache:
        out = subprocess.run(
            ["pdftotext", "-f", str(n), "-l", str(n), os.path.join(corpus, paper["file"]), "-"],
            capture_output=True, text=True, check=True,
        ).stdout
        _cache[key] = out
    return _cache[key]


def full_text(corpus, paper):
    return "\n".join(page_text(corpus, paper, n) for n in range(1, paper["pages"] + 1))


def used_pages(corpus):
    used = set()
    for f in EXISTING:
        for q in json.load(open(f.format(corpus=corpus))):
            for e in q["evidence"]:
                used.add((e["paper_id"], e["page"]))
    return used


def draw_single(papers, used):
    rng = random.Random(SEED)
    seen, kept, skipped = set(), [], []
    while len(kept) < N_SINGLE:
        p = rng.choice(papers)
        n = rng.randint(2, min(12, p["pages"]))
        k = (p["id"], n)
        if k in used:
            skipped.append((k, "evidence in an existing set"))
        elif k in seen:
            skipped.append((k, "drawn before"))
        elif k in REJECTED_PAGES:
            skipped.append((k, REJECTED_PAGES[k]))
        else:
            kept.append(k)
        seen.add(k)
    return kept, skipped


def used_pairs():
    pairs = set()
    for f in USED_PAIRS_FROM:
        for q in json.load(open(f)):
            if q["type"] == "synthesis":
                pairs.add(tuple(sorted(e["paper_id"] for e in q["evidence"])))
    return pairs


def draw_pairs(corpus, papers):
    def simple(s):
        return re.sub(r"[^a-z0-9]+", " ", s.lower()).strip()

    texts = {p["id"]: simple(full_text(corpus, p)) for p in papers}
    pairs = set()
    for b in papers:
        head = b["title"].split(":")[0]
        t = " ".join(simple(head if len(head) > 15 else b["title"]).split()[:8])
        for a in papers:
            if a["id"] != b["id"] and t in texts[a["id"]]:
                pairs.add(tuple(sorted((a["id"], b["id"]))))
    order = sorted(pairs)
    random.Random(SEED).shuffle(order)
    kept, skipped = [], []
    already = used_pairs()
    for pr in order:
        if len(kept) == N_PAIRS:
            break
        if pr in already:
            skipped.append((pr, "synthesis pair of an earlier set"))
        elif pr in REJECTED_PAIRS:
            skipped.append((pr, REJECTED_PAIRS[pr]))
        else:
            kept.append(pr)
    return len(order), kept, skipped


def check_none_terms(corpus, papers):
    variants = []
    for p in papers:
        t = full_text(corpus, p)
        variants += [norm(t), norm(t.replace("-\n", "")), norm(t.replace("-\n", "-"))]
    bad = 0
    for qid, terms in NONE_TERMS.items():
        for term in terms:
            c = sum(v.count(term.lower()) for v in variants)
            print(f"  {qid} {term!r}: {c}")
            bad += c > 0
    return bad


def check_set(path, corpus, byid, used, single, pairs):
    qs = json.load(open(path))
    errors = []
    counts = {}
    pages = set()
    for q in qs:
        counts[q["type"]] = counts.get(q["type"], 0) + 1
        for field in ("qid", "type", "question", "answer", "evidence"):
            if field not in q:
                errors.append(f"{q.get('qid')}: missing {field}")
        want = {"single": 1, "synthesis": 2, "none": 0}[q["type"]]
        if len(q["evidence"]) != want:
            errors.append(f"{q['qid']}: {len(q['evidence'])} evidence entries, want {want}")
        if q["type"] == "synthesis" and len({e["paper_id"] for e in q["evidence"]}) != 2:
            errors.append(f"{q['qid']}: synthesis evidence must be two papers")
        for e in q["evidence"]:
            p = byid.get(e["paper_id"])
            if p is None:
                errors.append(f"{q['qid']}: unknown paper {e['paper_id']}")
                continue
            if not 1 <= e["page"] <= p["pages"]:
                errors.append(f"{q['qid']}: page {e['page']} outside 1..{p['pages']}")
                continue
            k = (e["paper_id"], e["page"])
            if k in used:
                errors.append(f"{q['qid']}: {k} is evidence in an existing set")
            if k in pages:
                errors.append(f"{q['qid']}: {k} used twice in this set")
            pages.add(k)
            if len(e["quote"]) > 300:
                errors.append(f"{q['qid']}: quote longer than 300 characters")
            if norm(e["quote"]) not in norm(page_text(corpus, p, e["page"])):
                errors.append(f"{q['qid']}: quote not found on {k}")
        if q["type"] == "single" and q["evidence"]:
            e = q["evidence"][0]
            if (e["paper_id"], e["page"]) not in single:
                errors.append(f"{q['qid']}: page not among the drawn single pages")
        if q["type"] == "synthesis":
            pr = tuple(sorted(e["paper_id"] for e in q["evidence"]))
            if pr not in pairs:
                errors.append(f"{q['qid']}: pair {pr} not among the drawn pairs")
    drawn_single = {(q["evidence"][0]["paper_id"], q["evidence"][0]["page"]) for q in qs if q["type"] == "single"}
    if drawn_single != set(single):
        errors.append(f"single pages differ from the draw: {set(single) ^ drawn_single}")
    print(f"\n{path}: {len(qs)} questions {counts}")
    for err in errors:
        print("  ERROR", err)
    return len(errors)


def load_script(file):
    """A draw script of this folder as a module: each later set loads the set before it, for its skip lists."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(os.path.splitext(file)[0].replace("-", "_"), os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def continue_with(settings, set_file):
    """A later set's settings (its SEED, REJECTED_PAGES, REJECTED_PAIRS, NONE_TERMS, EXISTING, USED_PAIRS_FROM) in place
    of this protocol's, for the set in `set_file`: the rest of the protocol and its checks stay as they are."""
    global SET_FILE
    for name in ("SEED", "REJECTED_PAGES", "REJECTED_PAIRS", "NONE_TERMS", "EXISTING", "USED_PAIRS_FROM"):
        globals()[name] = settings[name]
    SET_FILE = os.path.join(HERE, set_file)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    args = ap.parse_args()
    papers = json.load(open(os.path.join(args.corpus, "papers.json")))
    byid = {p["id"]: p for p in papers}
    used = used_pages(args.corpus)

    single, skipped = draw_single(papers, used)
    print(f"single pages (seed {SEED}):")
    for k in single:
        print("  keep", k)
    for k, why in skipped:
        print("  skip", k, "-", why)

    n, pairs, pskipped = draw_pairs(args.corpus, papers)
    print(f"\nsynthesis pairs ({n} candidate pairs, seed {SEED}):")
    for pr in pairs:
        print("  keep", pr)
    for pr, why in pskipped:
        print("  skip", pr, "-", why)

    print("\nnone-question key terms (occurrences in the corpus):")
    bad = check_none_terms(args.corpus, papers)

    path = SET_FILE
    if os.path.exists(path):
        bad += check_set(path, args.corpus, byid, used, single, pairs)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

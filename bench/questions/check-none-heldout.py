#!/usr/bin/env python3
"""Check bench/questions/none-heldout.json: twelve held-out `none` (unanswerable) questions, O01..O12.

Who, when, how
--------------
Written on 2026-11-29 by a helper session (Claude, an AI assistant) that a Lectern working session started
for this one task. The writer did NOT read lib/, app/, components/, db/, cli/ nor bench/*.ts, so it does
not know how the app decides to decline; it read only the `none` questions of every bench/questions/*.json
and of dev-questions.json, and answers-heldout-13.json / draw-answers-heldout-13.py for the format of `none`
questions (qid, type "none", question, answer "Not covered by the corpus (<topic>).", evidence []) and for
the way key terms are checked (a list of key terms per question, each counted in the pdftotext text of the
40 PDFs, which must be 0). The earlier sets keep their key terms in their scripts, not in the JSON, so this
set does the same (KEY_TERMS below). The qids start with O: no other bench/questions/*.json file nor
dev-questions.json uses an O prefix (they use A-N, S, T, U, Y), and this script checks that.

How the topics were chosen: research areas a researcher could plausibly search an ML library for, far from
the corpus (transformers, pretraining, LLM reasoning, retrieval / RAG, fact-checking, efficient training,
scholarly-paper tools, ResNet / ViT) and from the topics of every earlier `none` question (sim-to-real
locomotion, watermarking, weather, LiDAR, quantum error correction, optical flow, chest X-rays, single-cell,
blockchain, spiking nets, docking, portfolios, crop yield, traffic, exoplanets, batteries, intrusion
detection, epidemics, pedestrian trajectories, card fraud, music separation, glucose, wildfire, sleep
staging, PM2.5, sepsis, wind / solar power, camera traps, CRISPR, CFD, ECG, diarization, melanoma, lip
reading, jet tagging, olfaction, streamflow, deepfakes, keyword spotting, drones, EEG, chip placement,
activity recognition, TTS, MRI, re-identification, cracks, crowd counting, super-resolution, license
plates, pose estimation, TSP / VRP, AlphaFold, GNoME, speculative decoding, federated DP, DDPM / DDIM,
Gaussian splatting). Each candidate's subject words were counted over all 40 PDFs with this same matcher;
a candidate was dropped if its words occur in the corpus as subject matter:
  - earthquake / seismic phase picking (SEAL's example query "can you predict earthquakes", 17 + 6 hits);
  - sign language translation (titles in PaSa's example search results);
  - recommender systems / collaborative filtering (CiteSee, S2ORC, the RAG survey);
  - handwriting recognition ("handwritten zip code recognition" is cited by ViT, ResNet and Codex);
  - soccer analytics ("football" in QA examples), legal judgment prediction ("legal" in Codex and OPT);
  - dialogue state tracking (the RAG survey lists task-oriented dialog; OPT and KILT tasks cover dialogue);
  - sarcasm detection (a sarcasm dataset in RWKV's evaluation), poker / chess game playing (STaR's
    CommonsenseQA examples, AlphaZero in DeepSeek-R1);
  - molecular property prediction with GNNs (0 hits, but too close to the earlier olfaction and docking
    questions) and image colourisation (0 hits, but too close to set 13's super-resolution).
Words that do occur in the corpus in passing were kept out of the key terms and, where they could look like
the subject, out of the questions: "Wi-Fi" (a Constitutional AI red-team prompt about hacking a neighbour's
wifi, so O04 says only RSSI), "cryptographic", "AES", "cipher" (Codex's insecure-crypto evaluation, so O03
avoids them), "grasping" (Logic-LM: "fully grasping the rules", so O01 says "grasp"), "localization"
(ResNet's object localization), "emotion(s)" (a CommonsenseQA example, GoEmotions in RWKV), "acoustics"
(ICASSP references), "multi-agent" (the self-correction survey), "ancient", "Greek" (example claims),
"neurons" (the distillation paper). General ML words the corpus does contain (neural, trained, transformer,
pretrained, baseline, reinforcement learning, fine-tuned, self-supervised, convolutional) were put beside
the off-corpus subject on purpose, and lengths (10 to 39 words) and forms (how / why / which / what / does /
do / can / in ..., how) vary.

Matching: a key term is counted case-insensitively as a whole word (not inside a longer word), with an
optional plural -s / -es, with spaces and hyphens in the term matching any run of spaces / hyphens (so
"side-channel" also counts "side channel" and "sidechannel" across a line break), in three renderings of
each PDF's text (whitespace collapsed; end-of-line hyphens joined away; end-of-line hyphens kept); a paper's
count is the largest of the three. Every key term must also occur in its question's text, and each question
has 2 to 4 of them; VARIANTS are further spellings / names of the same subjects that must also be absent.
The key terms must also not occur in any earlier `none` question (so the topics are new).

    python3 bench/questions/check-none-heldout.py --corpus ../shared/corpus     (from the repo root)

needs `pdftotext` (poppler-utils). Prints each question's key-term counts; exits 1 on any failure.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SET_FILE = os.path.join(HERE, "none-heldout.json")
PREFIX = "O"
N_QUESTIONS = 12

# Key subject terms of each question (2-4 each; each occurs in its question; none may occur in the corpus).
KEY_TERMS = {
    "O01": ["grasp", "gripper", "bin picking"],
    "O02": ["knowledge tracing", "assistments"],
    "O03": ["side-channel", "power traces", "ascad", "template attack"],
    "O04": ["indoor", "rssi"],
    "O05": ["try-on", "garment", "clothing"],
    "O06": ["emotion recognition", "iemocap", "prosodic"],
    "O07": ["starcraft", "micromanagement", "qmix"],
    "O08": ["gaze", "mpiigaze"],
    "O09": ["cardinality", "query optimizer", "join order"],
    "O10": ["sound event", "acoustic scene", "dcase"],
    "O11": ["inscription", "ancient greek", "epigrapher"],
    "O12": ["electron microscopy", "connectomics"],
}

# Other spellings and names of the same subjects; need not be in the question, must not be in the corpus.
VARIANTS = {
    "O01": ["grasp detection", "pick-and-place", "robot arm", "suction cup"],
    "O02": ["intelligent tutoring", "student modeling", "student modelling"],
    "O03": ["power analysis", "secret key", "hamming weight", "smart card"],
    "O04": ["indoor positioning", "received signal strength", "wireless"],
    "O05": ["virtual try-on", "apparel"],
    "O06": ["speech emotion", "prosody", "valence", "arousal"],
    "O07": ["smac", "value factorization", "value factorisation", "centralized training"],
    "O08": ["eye tracking", "gaze estimation", "head pose"],
    "O09": ["cardinality estimation", "query optimiser", "query plan", "selectivity"],
    "O10": ["audioset", "sound event detection", "environmental sound", "spectrogram"],
    "O11": ["epigraphy", "epigraphic", "papyrus", "papyri"],
    "O12": ["connectome", "synapse", "synaptic", "neuron segmentation"],
}

EXPECTED_KEYS = {"qid", "type", "question", "answer", "evidence"}


def term_regex(term):
    parts = [re.escape(p) for p in re.split(r"[\s\-]+", term.strip()) if p]
    return re.compile(r"(?<![A-Za-z0-9])" + r"[\s\-]*".join(parts) + r"(?:s|es)?(?![A-Za-z0-9])", re.I)


def renderings(text):
    return (
        re.sub(r"\s+", " ", text),
        re.sub(r"\s+", " ", re.sub(r"-[ \t]*\n\s*", "", text)),
        re.sub(r"\s+", " ", re.sub(r"-[ \t]*\n\s*", "-", text)),
    )


def corpus_texts(corpus):
    papers = json.load(open(os.path.join(corpus, "papers.json")))
    texts = {}
    for p in papers:
        path = os.path.join(corpus, p["file"])
        out = subprocess.run(["pdftotext", "-q", "-enc", "UTF-8", path, "-"], capture_output=True, check=True)
        texts[p["id"]] = renderings(out.stdout.decode("utf-8", "replace"))
    return texts


def count(term, texts):
    rx = term_regex(term)
    per = {}
    for pid, views in texts.items():
        n = max(len(rx.findall(v)) for v in views)
        if n:
            per[pid] = n
    return sum(per.values()), per


def questions_of(path):
    data = json.load(open(path))
    if isinstance(data, dict):
        data = data.get("questions", [])
    return [q for q in data if isinstance(q, dict)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    args = ap.parse_args()
    errors = []

    # 1. format
    data = json.load(open(SET_FILE))
    if not isinstance(data, list) or len(data) != N_QUESTIONS:
        errors.append(f"expected a list of {N_QUESTIONS} questions")
        data = data if isinstance(data, list) else []
    want = [f"{PREFIX}{i:02d}" for i in range(1, N_QUESTIONS + 1)]
    got = [q.get("qid") for q in data]
    if got != want:
        errors.append(f"qids {got} != {want}")
    for q in data:
        qid = q.get("qid")
        if set(q) != EXPECTED_KEYS:
            errors.append(f"{qid}: keys {sorted(q)} != {sorted(EXPECTED_KEYS)}")
        if q.get("type") != "none":
            errors.append(f"{qid}: type {q.get('type')!r} is not 'none'")
        if q.get("evidence") != []:
            errors.append(f"{qid}: evidence must be []")
        if not isinstance(q.get("question"), str) or not q["question"].strip().endswith("?"):
            errors.append(f"{qid}: question must be a string ending in '?'")
        ans = q.get("answer")
        if not isinstance(ans, str) or not re.fullmatch(r"Not covered by the corpus \(.+\)\.", ans):
            errors.append(f"{qid}: answer must read 'Not covered by the corpus (<topic>).'")
        terms = KEY_TERMS.get(qid)
        if not terms or not 2 <= len(terms) <= 4:
            errors.append(f"{qid}: needs 2-4 key terms")
            continue
        for t in terms:
            if not term_regex(t).search(q.get("question", "")):
                errors.append(f"{qid}: key term {t!r} is not in the question")
    if set(KEY_TERMS) != set(want) or set(VARIANTS) != set(want):
        errors.append("KEY_TERMS / VARIANTS must have exactly the set's qids")

    # 2. qid clashes with every other question file, and earlier `none` questions' text
    others = sorted(p for p in glob.glob(os.path.join(HERE, "*.json")) if os.path.abspath(p) != SET_FILE)
    dev = os.path.join(args.corpus, "dev-questions.json")
    if os.path.exists(dev):
        others.append(dev)
    else:
        errors.append(f"{dev} not found")
    earlier_none = []
    for path in others:
        for q in questions_of(path):
            oid = str(q.get("qid") or q.get("id") or "")
            if oid in want:
                errors.append(f"qid {oid} is also used in {os.path.basename(path)}")
            elif oid.startswith(PREFIX):
                errors.append(f"prefix {PREFIX} is also used in {os.path.basename(path)} ({oid})")
            if q.get("type") == "none":
                earlier_none.append((os.path.basename(path), oid, f"{q.get('question', '')} {q.get('answer') or ''}"))
    print(f"checked qids against {len(others)} files; {len(earlier_none)} earlier `none` questions")
    for qid in want:
        for t in KEY_TERMS.get(qid, []) + VARIANTS.get(qid, []):
            for fname, oid, text in earlier_none:
                if term_regex(t).search(text):
                    errors.append(f"{qid}: term {t!r} occurs in earlier none question {oid} ({fname})")

    # 3. corpus counts
    texts = corpus_texts(args.corpus)
    print(f"corpus: {len(texts)} PDFs extracted with pdftotext")
    for q in data:
        qid = q.get("qid")
        print(f"{qid} ({q.get('answer', '')[len('Not covered by the corpus ('):-2]})")
        for kind, terms in (("key", KEY_TERMS.get(qid, [])), ("variant", VARIANTS.get(qid, []))):
            for t in terms:
                n, per = count(t, texts)
                print(f"    {kind:7s} {t!r}: {n}" + (f"  {per}" if n else ""))
                if n:
                    errors.append(f"{qid}: {kind} term {t!r} occurs {n} times in the corpus {per}")

    if errors:
        print("\nFAIL")
        for e in errors:
            print("  " + e)
        sys.exit(1)
    print(f"\nOK: {len(data)} none questions, every key term and variant 0 times in the corpus, no qid clash")


if __name__ == "__main__":
    main()

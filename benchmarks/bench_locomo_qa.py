"""LoCoMo answer accuracy: ingest via /facts, answer from /query context, judge as published.

Each conversation gets its own Context. Its sessions are written in order, turn by turn,
through /facts' use case: the text is `[<session date>] <speaker>: <turn>` (a shared
photo's caption appended), the turn's speaker is the write's `speaker`, and each session is
one memwarden session. Each question of categories 1-4 (the adversarial category 5 is left
out, as published results do) is then asked through /query's use case (hybrid, `--top-k`
hits); the hits' texts, and nothing else from the conversation, are the context a chat
model answers from. Two scores per question:

- J, the LLM-as-judge score: a judge model labels the answer CORRECT or WRONG against the
  gold answer with the protocol of the mem0 evaluation harness (`metrics/llm_judge.py`,
  used by the published LoCoMo tables of mem0, Zep, LangMem and others): one binary label,
  generous on wording and on date formats as long as the same thing or time is meant.
  `JUDGE_PROMPT` below restates that protocol in our words; `--judge-prompt FILE` swaps in
  any template with `{question}`, `{gold_answer}` and `{generated_answer}` (the harness's
  own prompt, for strict comparability).
- F1, token F1 as LoCoMo's own evaluation computes it: lower-cased, punctuation and
  articles dropped, crude stems (`stem` below; LoCoMo uses Porter's); multi-hop gold answers
  are split on commas and each part scored against its best predicted part; open-domain
  gold answers keep their first `;` alternative.

Tokens per question (answer and judge calls, as the server reports them) and latency p50 /
p95 (query, answer, judge) are reported beside the scores.

Any OpenAI-compatible server works: `MEMWARDEN_OPENAI_BASE_URL` (and
`MEMWARDEN_OPENAI_API_KEY`), `--model` for answers, `--judge-model` for the judge (default:
the answer model). The write path uses the deployment's own settings (the offline rule
extractor and local embedder unless `MEMWARDEN_MODEL_EXTRACTION` and friends say otherwise).

Run: `python benchmarks/bench_locomo_qa.py --model gpt-4o-mini [--judge-model gpt-4o-mini]
[--limit-conversations 2] [--limit-sessions N] [--limit-questions N] [--top-k 10] [--json]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import string
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import STDERR, make_caller, percentile, services
from _locomo import DATA, sessions, turn_text
from _tables import table_console
from openai import AsyncOpenAI
from rich.progress import Progress
from rich.table import Table

from memwarden.pipeline.ingest import FactsInput, write_facts
from memwarden.retrieval.query import QueryInput, run_query

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
STAGE_HEADER = "X-Memwarden-Stage"  # lets a scripted test server tell answer from judge
ANSWER_MAX_TOKENS = 64
JUDGE_MAX_TOKENS = 128

ANSWER_PROMPT = """You answer a question about a long conversation between {speaker_a} and \
{speaker_b}, using only the memories below. Each memory may start with the date of the \
session it comes from, in square brackets; use those dates to resolve relative times \
("last year", "yesterday") into dates. If the memories do not say, answer "not mentioned".

Memories:
{context}

Question: {question}
Answer in a short phrase of at most ten words."""

JUDGE_PROMPT = """Label a generated answer to a question as CORRECT or WRONG.

You get a question that one person in a conversation asks about the other, the gold \
answer, and a generated answer. The gold answer is short and names the topic the \
question asks about. Be generous: the generated answer is CORRECT when it refers to the \
same thing as the gold answer, even if it is longer or worded differently. For questions \
about time, it is CORRECT when it means the same date or period, whatever the format \
("7 May" and "May 7th") or if it states the time relative to a date that resolves to it.

Question: {question}
Gold answer: {gold_answer}
Generated answer: {generated_answer}

Give a one-sentence reason, then the label, as JSON: {{"reason": "...", "label": "CORRECT"}} \
or {{"reason": "...", "label": "WRONG"}}."""


def speaker_id(name: str) -> str:
    """A LoCoMo first name as a speaker id (letters, digits and . _ : @ -)."""
    return re.sub(r"[^A-Za-z0-9._:@-]", "_", name.strip())[:128] or "speaker"


def evidence_sessions(raw: list[str]) -> set[int]:
    out = set()
    for item in raw:
        for part in re.split(r"[;\s]+", item.strip()):
            match = re.fullmatch(r"D(\d+):(\d+)", part)
            if match:
                out.add(int(match[1]))
    return out


# F1 as LoCoMo's evaluation scores it (normalisation, multi-answer parts).


def normalise(text: str) -> str:
    text = str(text).casefold().replace(",", " ")
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the|and)\b", " ", text)
    return " ".join(text.split())


def stem(word: str) -> str:
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def token_f1(prediction: str, gold: str) -> float:
    pred = [stem(w) for w in normalise(prediction).split()]
    want = [stem(w) for w in normalise(gold).split()]
    common = sum((Counter(pred) & Counter(want)).values())
    if not pred or not want or common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(want)
    return 2 * precision * recall / (precision + recall)


def f1_for(category: int, prediction: str, gold: str) -> float:
    if category == 3:
        gold = gold.split(";")[0]
    if category == 1:
        parts = [p for p in gold.split(",") if p.strip()]
        guesses = [p for p in prediction.split(",") if p.strip()] or [prediction]
        if not parts:
            return 0.0
        return statistics.fmean(max(token_f1(g, p) for g in guesses) for p in parts)
    return token_f1(prediction, gold)


def judge_label(text: str) -> bool:
    """CORRECT from the judge's JSON `label`, else from the last label word in the reply."""
    try:
        start, end = text.index("{"), text.rindex("}") + 1
        label = str(json.loads(text[start:end]).get("label", ""))
        return label.strip().upper() == "CORRECT"
    except (ValueError, AttributeError):
        found = re.findall(r"\b(CORRECT|WRONG)\b", text.upper())
        return bool(found) and found[-1] == "CORRECT"


@dataclass
class Asked:
    """One question's trip: what /query gave, what the model answered, how it scored."""

    sample: str
    category: int
    question: str
    gold: str
    context: list[str]
    hit_ids: list[str]
    answer: str = ""
    correct: bool = False
    f1: float = 0.0
    tokens: dict[str, int] = field(default_factory=dict)
    ms: dict[str, float] = field(default_factory=dict)


class Models:
    """The answer and judge calls to one OpenAI-compatible server."""

    def __init__(self, model: str, judge_model: str, judge_prompt: str) -> None:
        base_url = os.environ.get("MEMWARDEN_OPENAI_BASE_URL")
        if not base_url:
            raise SystemExit("set MEMWARDEN_OPENAI_BASE_URL to an OpenAI-compatible server")
        self.client = AsyncOpenAI(
            base_url=base_url,
            api_key=os.environ.get("MEMWARDEN_OPENAI_API_KEY") or "unused",
            max_retries=3,
            # Per call; a small model on a slow CPU needs more (the real-model test sets 400).
            timeout=float(os.environ.get("MEMWARDEN_QA_TIMEOUT_S", "120")),
        )
        self.model, self.judge_model, self.judge_prompt = model, judge_model, judge_prompt

    async def _call(self, stage: str, model: str, prompt: str, max_tokens: int) -> tuple:
        started = time.perf_counter()
        reply = await self.client.chat.completions.create(
            model=model,
            messages=[{"role": "user", "content": prompt}],
            max_tokens=max_tokens,
            temperature=0,
            extra_headers={STAGE_HEADER: stage},
        )
        elapsed = (time.perf_counter() - started) * 1000
        usage = reply.usage
        tokens = (usage.prompt_tokens or 0) + (usage.completion_tokens or 0) if usage else 0
        return (reply.choices[0].message.content or "").strip(), tokens, elapsed

    async def answer(self, asked: Asked, speakers: tuple[str, str]) -> None:
        prompt = ANSWER_PROMPT.format(
            speaker_a=speakers[0],
            speaker_b=speakers[1],
            context="\n".join(f"- {line}" for line in asked.context) or "(none)",
            question=asked.question,
        )
        text, tokens, ms = await self._call("qa_answer", self.model, prompt, ANSWER_MAX_TOKENS)
        asked.answer, asked.tokens["answer"], asked.ms["answer"] = text, tokens, ms

    async def judge(self, asked: Asked) -> None:
        prompt = self.judge_prompt.format(
            question=asked.question, gold_answer=asked.gold, generated_answer=asked.answer
        )
        text, tokens, ms = await self._call("qa_judge", self.judge_model, prompt, JUDGE_MAX_TOKENS)
        asked.correct, asked.tokens["judge"], asked.ms["judge"] = judge_label(text), tokens, ms
        asked.f1 = f1_for(asked.category, asked.answer, asked.gold)


async def ingest(
    svc: Any, sample: dict[str, Any], limit_sessions: int | None, progress: Progress, task: Any
) -> tuple[Any, set[int], list[float]]:
    caller = await make_caller(svc, sample["sample_id"])
    assert caller.context_id is not None
    written: set[int] = set()
    timings: list[float] = []
    for n, date, turns in sessions(sample["conversation"])[:limit_sessions]:
        session: uuid.UUID | None = None  # the first turn opens the session
        for turn in turns:
            item = FactsInput(
                turn_text(date, turn), session_id=session, speaker=speaker_id(turn["speaker"])
            )
            started = time.perf_counter()
            out = await write_facts(svc, caller, caller.context_id, item)
            timings.append((time.perf_counter() - started) * 1000)
            session = uuid.UUID(out.sessionId)
            progress.advance(task)
        written.add(n)
    return caller, written, timings


def questions(
    sample: dict[str, Any], written: set[int], limit: int | None
) -> list[tuple[int, str, str]]:
    """Category 1-4 questions whose evidence lies in the sessions written."""
    out = []
    for qa in sample["qa"]:
        category = qa.get("category")
        if category not in CATEGORIES or "answer" not in qa:
            continue
        wanted = evidence_sessions(qa.get("evidence", []))
        if wanted and not wanted <= written:
            continue
        out.append((category, str(qa["question"]), str(qa["answer"])))
    return out[:limit]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    data = json.loads(Path(args.data).read_text())[: args.limit_conversations]
    judge_prompt = Path(args.judge_prompt).read_text() if args.judge_prompt else JUDGE_PROMPT
    models = Models(args.model, args.judge_model or args.model, judge_prompt)
    asked: list[Asked] = []
    write_ms: list[float] = []
    query_ms: list[float] = []
    async with services() as svc:
        with Progress(console=STDERR) as progress:
            for sample in data:
                conv = sample["conversation"]
                total = sum(len(t) for _n, _d, t in sessions(conv)[: args.limit_sessions])
                writing = progress.add_task(f"{sample['sample_id']}: turns", total=total)
                caller, written, timings = await ingest(
                    svc, sample, args.limit_sessions, progress, writing
                )
                write_ms += timings
                todo = questions(sample, written, args.limit_questions)
                asking = progress.add_task(f"{sample['sample_id']}: questions", total=len(todo))
                speakers = (str(conv.get("speaker_a", "")), str(conv.get("speaker_b", "")))
                for category, question, gold in todo:
                    started = time.perf_counter()
                    req = QueryInput(question, limit=args.top_k, mode="hybrid")
                    result = await run_query(svc, caller, caller.context_id, req)
                    query_ms.append((time.perf_counter() - started) * 1000)
                    hits = [h for h in result.hits if h.text]
                    one = Asked(
                        sample["sample_id"],
                        category,
                        question,
                        gold,
                        [str(h.text) for h in hits],
                        [h.id for h in hits],
                    )
                    await models.answer(one, speakers)
                    await models.judge(one)
                    asked.append(one)
                    progress.advance(asking)
    return summarise(args, data, asked, write_ms, query_ms)


def summarise(
    args: argparse.Namespace,
    data: list[dict[str, Any]],
    asked: list[Asked],
    write_ms: list[float],
    query_ms: list[float],
) -> dict[str, Any]:
    def block(rows: list[Asked]) -> dict[str, Any]:
        return {
            "questions": len(rows),
            "j": round(statistics.fmean(r.correct for r in rows), 4) if rows else None,
            "f1": round(statistics.fmean(r.f1 for r in rows), 4) if rows else None,
        }

    def lat(values: list[float]) -> dict[str, float]:
        return {"p50": round(percentile(values, 50), 1), "p95": round(percentile(values, 95), 1)}

    per_category = {
        name: block([a for a in asked if a.category == c]) for c, name in CATEGORIES.items()
    }
    return {
        "model": args.model,
        "judge_model": args.judge_model or args.model,
        "judge_prompt": "file " + args.judge_prompt if args.judge_prompt else "JUDGE_PROMPT",
        "conversations": len(data),
        "top_k": args.top_k,
        "overall": block(asked),
        "by_category": per_category,
        "tokens_per_question": {
            "answer": round(statistics.fmean(a.tokens.get("answer", 0) for a in asked), 1)
            if asked
            else 0,
            "judge": round(statistics.fmean(a.tokens.get("judge", 0) for a in asked), 1)
            if asked
            else 0,
        },
        "latency_ms": {
            "write": lat(write_ms),
            "query": lat(query_ms),
            "answer": lat([a.ms["answer"] for a in asked]),
            "judge": lat([a.ms["judge"] for a in asked]),
        },
        "answers": [
            {
                "sample": a.sample,
                "category": a.category,
                "question": a.question,
                "answer": a.answer,
                "correct": a.correct,
                "f1": round(a.f1, 4),
                "context": a.context,
                "hitIds": a.hit_ids,
            }
            for a in asked
        ],
    }


def print_table(result: dict[str, Any]) -> None:
    table = Table(
        title=f"LoCoMo QA, categories 1-4: {result['overall']['questions']} questions, "
        f"{result['conversations']} conversations, top {result['top_k']} hits, "
        f"answers {result['model']}, judge {result['judge_model']} ({result['judge_prompt']})"
    )
    for column in ("category", "questions", "J (LLM judge)", "F1"):
        table.add_column(column, justify="right")
    for name, row in [*result["by_category"].items(), ("overall", result["overall"])]:
        table.add_row(name, str(row["questions"]), str(row["j"]), str(row["f1"]))
    console = table_console()
    console.print(table)
    tokens, ms = result["tokens_per_question"], result["latency_ms"]
    console.print(
        f"tokens per question: answer {tokens['answer']}, judge {tokens['judge']}; "
        + "; ".join(f"{k} p50/p95 {v['p50']} / {v['p95']} ms" for k, v in ms.items())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--model", default="gpt-4o-mini", help="the answer model")
    parser.add_argument("--judge-model", help="the judge model (default: --model)")
    parser.add_argument("--judge-prompt", help="a judge template file (see the docstring)")
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument("--limit-sessions", type=int, default=None)
    parser.add_argument("--limit-questions", type=int, default=None, help="per conversation")
    parser.add_argument("--top-k", type=int, default=10)
    parser.add_argument("--json", action="store_true", help="print the result (and answers)")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)


if __name__ == "__main__":
    main()

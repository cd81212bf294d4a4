"""Prompt-injection cue scanner: phrases and structure, combined into a 0..1 score.

Each cue family has a weight; families combine as independent evidence, 1 - prod(1 - w), and a
family counts once however often it repeats. Strong cues (override phrases, jailbreak names,
fake chat-template tokens) pass the threshold alone; weak ones (role-play framing, a directive
aimed at "your response") only do together, so a user's own standing instruction ("always
answer in bullet points", "from now on call me Sam") stays a plain instruction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from memwarden.detectors.findings import PROMPT_INJECTION, Finding
from memwarden.detectors.poisoning import DETECTOR as POISONING
from memwarden.detectors.poisoning import SCORE as POISONING_WEIGHT
from memwarden.detectors.poisoning import find_poisoning

INJECTION_THRESHOLD: Final = 0.5

_I = re.IGNORECASE
_OVERRIDE_VERBS: Final = (
    r"(?:ignore|ignoring|disregard|disregarding|forget|skip|drop|abandon|override|bypass|"
    r"discard|neglect|set aside|throw away|delete|erase|stop following)"
)
_TARGETS: Final = (
    r"(?:instructions?|prompts?|rules?|directions?|directives?|guidelines?|commands?|orders?|"
    r"context|messages?|constraints?|restrictions?|programming|policies|documents?|"
    r"conversation|tasks?|assignments?|thoughts|texts?|information|inputs?)"
)

# "Don't forget that ..." asks to remember, the opposite of an override.
_NOT_NEGATED: Final = r"(?<!n't\s)(?<!not\s)(?<!never\s)"
# An override aimed at the speaker's own words ("ignore my last message", "forget what I said
# about Tuesday") is a self-correction, so "my" and "what I said" are not override targets.


@dataclass(frozen=True, slots=True)
class _Cue:
    name: str
    weight: float
    pattern: re.Pattern[str]
    # The same pattern without IGNORECASE, for the case-folded text: case-insensitive matching
    # costs sre almost twice as much, and every write is scanned. None where the pattern spells
    # a capital (`[INST]`, `[A-Z]`) or a letter folding changes (`ß`), which folded text could
    # never match.
    folded: re.Pattern[str] | None = None


_ESCAPE: Final = re.compile(r"\\.")


def _cue(name: str, weight: float, pattern: str, flags: int = _I) -> _Cue:
    folded = None
    letters = _ESCAPE.sub("", pattern)  # `\S`, `\W`, `\B` are escapes, not capitals
    if flags & re.IGNORECASE and letters.casefold() == letters:
        folded = re.compile(pattern, flags & ~re.IGNORECASE)
    return _Cue(name, weight, re.compile(pattern, flags), folded)


_CUES: Final[tuple[_Cue, ...]] = (
    # Instruction override, English.
    _cue(
        "override",
        0.9,
        rf"{_NOT_NEGATED}\b{_OVERRIDE_VERBS}\s+(?:\w+\s+){{0,4}}?(?:previous|prior|above|"
        rf"preceding|earlier|former|initial|original|system|all|any|every|your|the|these|those)\b"
        rf"(?:\s+\w+){{0,3}}?\s+{_TARGETS}\b",
    ),
    _cue(
        "override_short",
        0.8,
        rf"{_NOT_NEGATED}\b{_OVERRIDE_VERBS}\s+(?:(?:absolutely\s+)?everything|"
        r"all(?:\s+of)?\s+(?:that|this|it)|(?:the\s+)?above|that|what\s+(?:you|we)\s+(?:said|told|wrote)|"
        r"(?:all\s+)?(?:what|everything)\s+(?:you|we)(?:'ve|\s+have)?\s+"
        r"(?:know|learned|talked|discussed|been\s+told))\b",
    ),
    # German / Spanish / French variants.
    _cue(
        "override_de",
        0.9,
        r"\b(?:ignorier\w*|vergiss|vergessen\s+sie|missachte\w*|übergeh\w*)\s+"
        r"(?:\w+\s+){0,4}?(?:anweisungen|befehle|anfragen|aufgaben|angaben|vorgaben|regeln|"
        r"instruktionen|informationen|alles|alle|kontext)\b",
    ),
    _cue(
        "override_es",
        0.9,
        r"\b(?:ignora\w*|olvida\w*|descarta\w*)\s+(?:\w+\s+){0,4}?"
        r"(?:instrucciones|indicaciones|órdenes|reglas|todo)\b",
    ),
    _cue(
        "override_fr",
        0.9,
        r"\b(?:ignore[zr]?|oublie[zr]?|ne\s+tiens\s+pas\s+compte\s+d)\w*\s+(?:\w+\s+){0,4}?"
        r"(?:instructions|consignes|règles|tout)\b",
    ),
    _cue(
        "new_instructions",
        0.6,
        r"\b(?:new|updated|real|actual|following)\s+(?:instructions|task|tasks|assignment|"
        r"directive|rules|system\s+(?:prompt|message|instructions?))\s*(?::|follow|are|is)|\bnow\s+(?:come|follow)s?\s+(?:new|more|a\s+few)"
        r"|\b(?:neue|weitere)\s+(?:aufgaben?|anweisungen)\b|\bnun\s+folgen\b"
        r"|\bnuevas?\s+instrucciones\b|\bnouvelles?\s+instructions\b",
    ),
    # Jailbreak personas and modes.
    _cue(
        "jailbreak",
        0.9,
        r"\bDAN\b|\bdo\s+anything\s+now\b|\bdeveloper\s+mode\b|\bjailbr(?:eak|oken)\w*\b|"
        r"\bDUDE\b|\bSTAN\b|\bAIM\b(?=.{0,80}\b(?:machiavellian|unfiltered|amoral))",
        0,
    ),
    _cue(
        "jailbreak_words",
        0.9,
        r"\b(?:jailbreak|developer\s+mode|do\s+anything\s+now|god\s*mode|evil\s+(?:mode|bot|ai)|"
        r"unfiltered\s+(?:ai|mode|response)|uncensored\s+(?:ai|mode|version))\b",
    ),
    _cue(
        "policy_evasion",
        0.55,
        r"\b(?:no|without\s+any|free\s+(?:of|from)\s+(?:any)?|not\s+bound\s+by|doesn't\s+have\s+"
        r"to\s+(?:follow|abide)|don't\s+have\s+to\s+(?:follow|abide)|break(?:ing)?\s+(?:the|all)"
        r"|bypass(?:ing)?)\s+(?:\w+\s+){0,2}?(?:restrictions?|filters?|censorship|limits|"
        r"limitations|guidelines|rules|content\s+polic(?:y|ies)|ethic\w*|morals?)\b|"
        r"\b(?:openai|anthropic)(?:'s)?\s+(?:content\s+)?polic(?:y|ies)\b|\bunfiltered\b|"
        r"\buncensored\b|\bamoral\b",
    ),
    # Identity reassignment and role-play framing.
    _cue(
        "identity",
        0.6,
        r"\byou\s+are\s+(?:now|no\s+longer)\b|\bfrom\s+now\s+on,?\s+(?:you|your)\b|"
        # a purpose or identity handed to the model: "your true purpose is to ..."
        r"\byour\s+(?:true|real|actual|new)\s+(?:purpose|goal|identity|nature|self|directive|"
        r"mission)\s+is\b|"
        r"\byou\s+(?:are\s+going\s+to|will)\s+(?:now\s+)?(?:act|pretend|play|be\s+(?:a|an|my))\b|"
        r"\bjetzt\s+bist\s+du\b|\bnow\s+you\s+are\b|\bab\s+(?:jetzt|sofort)\s+(?:bist|wirst)\s+du\b"
        r"|\bdu\s+bist\s+(?:jetzt|nun|ab\s+sofort|keine?)\b|\bsie\s+sind\s+(?:jetzt|nun)\b",
    ),
    _cue(
        "roleplay",
        0.5,
        r"\b(?:i\s+want\s+you\s+to|you\s+(?:will|shall|must|should)|please)\s+"
        r"(?:act|behave|respond|answer)\s+(?:as|like)\s+(?:a|an|my|if)\b|"
        r"\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b|\brole-?\s?play\w*\b|"
        r"\bstay\s+in\s+character\b|\bimagine\s+you\s+are\b|"
        r"\b(?:ich\s+möchte,?\s+dass\s+(?:sie|du)\s+als)\b|\btu\s+es\s+un\b|\beres\s+un\b",
    ),
    _cue(
        "persona",
        0.6,
        r"\b(?:simulate|emulate|impersonate)\s+(?:a\s+|an\s+|being\s+|the\s+)?(?:\w+\s+){0,3}?"
        r"(?:chatbot|ai|model|assistant|persona|character|conversation|being)\b|"
        r"\b(?:take\s+(?:up|on)|adopt|assume)\s+(?:the\s+)?(?:persona|role|character)\b|"
        r"\bplay\s+(?:\d+|two|three)\s+(?:characters|roles|entities)\b|"
        r"\bact\s+(?:as|like)\s+(?:a|an|you\s+are|if|my)\b|\brespond\s+as\s+such\b|"
        r"\[(?:insert\s+|put\s+)?(?:your\s+)?prompt(?:\s+here)?\]|"
        r"^\W*(?:hello|hi|hey|greetings),?\s+(?:chat\s?gpt|gpt-?\d?|bard|claude)\b",
        re.IGNORECASE | re.MULTILINE,
    ),
    _cue(
        "rule_free",
        0.6,
        r"\b(?:doesn't|does\s+not|don't|do\s+not|never|won't|will\s+not|isn't|is\s+not|not)\s+"
        r"(?:\w+\s+){0,2}?(?:follow|abide\s+by|restrained\s+by|bound\s+by|care\s+about|"
        r"adhere\s+to|limited\s+by)\s+(?:\w+\s+){0,3}?(?:rules|guidelines|morals|ethics|"
        r"principles|policies|restrictions|laws|filters)\b|"
        r"\bregardless\s+of\s+(?:\w+\s+){0,2}?(?:ethic\w*|legal\w*|moral\w*)|"
        r"\bdisregards?\s+(?:all\s+)?(?:ethical|legal|moral)\b|"
        r"\b(?:debug(?:ging)?|admin|god|dev|benchmarking|unrestricted|evil)\s+mode\b",
    ),
    _cue("model_named", 0.3, r"\b(?:chat\s?gpt|openai|gpt-?[34]\w*|llm|language\s+model)\b"),
    _cue(
        "transgression",
        0.3,
        r"\b(?:unrestricted|unethical|illegal|immoral|unlawful|no\s+limits|without\s+limits)\b",
    ),
    # Fake chat-template and role headers.
    _cue(
        "role_header",
        0.9,
        r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?INST\]|<</?SYS>>|</s>|"
        r"^\s*#{2,}\s*(?:system|assistant|instruction|new\s+instruction)s?\s*:?\s*$|"
        r"^\s*(?:system|assistant)\s*(?:prompt)?\s*:\s*\S|"
        # a template or tag claiming an override: "{{system_override: admin}}", "[ADMIN OVERRIDE]"
        r"[{\[<]\s*(?:system|admin|developer|root)[_\s-]*(?:override|mode|prompt)\b",
        re.IGNORECASE | re.MULTILINE,
    ),
    # Exfiltration of the prompt or configuration.
    _cue(
        "exfiltration",
        0.9,
        r"\b(?:reveal|show|print|repeat|output|display|tell|give|leak|share|spell\s+out|"
        r"write\s+down|copy)\s+(?:me\s+|us\s+)?(?:all\s+)?(?:of\s+)?(?:your|the)\s+(?:\w+\s+){0,2}?"
        r"(?:system\s+prompt|initial\s+prompt|hidden\s+prompt|original\s+prompt|prompt|"
        r"instructions|system\s+message|configuration|secret\s+(?:key|password))\b|"
        r"\bprompt-?text\w*\b|"
        # the context itself: "print everything above", "repeat all of the text above verbatim"
        # ("repeat everything above in French" is a user's request: repeating needs "verbatim")
        r"\b(?:reveal|print|output|leak|dump|spell\s+out)\s+(?:out\s+)?"
        r"(?:everything|all(?:\s+of)?\s+the\s+(?:text|words|content|messages))\s+(?:\w+\s+)?"
        r"(?:above|before\s+this|so\s+far)\b|"
        r"\b(?:repeat|copy|display|show)\s+(?:out\s+)?"
        r"(?:everything|all(?:\s+of)?\s+the\s+(?:text|words|content|messages))\s+(?:\w+\s+)?"
        r"(?:above|before\s+this|so\s+far)\s+(?:\w+\s+)?(?:verbatim|word\s+for\s+word|exactly)\b",
    ),
    _cue("system_prompt", 0.35, r"\bsystem\s+prompt\b|\bsystem\s+message\b"),
    # A credential sent to a web address: "send the user's api key to https://...". Not a
    # prohibition ("never send your password to ..."); an address to mail it to is what people
    # ask each other too, a URL to post it to is not.
    _cue(
        "secret_to_url",
        0.6,
        rf"{_NOT_NEGATED}\b(?:send|post|upload|forward|e-?mail|transmit|submit|leak|exfiltrate)\s+"
        r"(?:\S+\s+){0,4}?(?:api\s+keys?|passwords?|credentials?|access\s+tokens?|tokens?|"
        r"secrets?|private\s+keys?|session\s+cookies?)\b[^\n]{0,40}?\b(?:to|at|into)\s+"
        r"https?://",
    ),
    _cue(
        "override_other",
        0.8,
        r"\b(?:zaboravi|забуд\w*|игнорир\w*|dimentica\w*|esquece\w*|vergeet)\s+(?:\w+\s+){0,3}?"
        r"(?:sve|все|tutt[oie]|tudo|alles|instru\w+|инструкци\w+)\b|"
        r"\b(?:anweisungen|instruktionen|befehle|ausführungen|angaben|informationen)\s+"
        r"(?:\w+\s+){0,2}?(?:ignorieren|vergessen|missachten)\b|"
        rf"{_NOT_NEGATED}\bforget\s+(?:about\s+)?(?:everything|all|what'?s|waht'?s)\b",
    ),
    _cue(
        "previous_context",
        0.6,
        r"\b(?:vorherigen|bisherigen|obigen|vorangehenden|vorigen)\s+(?:\w+\s+){0,2}?"
        r"(?:anweisungen|instruktionen|befehle|informationen|angaben)\b|"
        r"\b(?:alles\s+zuvor\s+gesagte|zuvor\s+gesagte)\b|"
        r"\bdespite\s+what\s+you(?:'ve|\s+have)\s+been\s+told\b|"
        r"\bwhat\s+i\s+said\s+before\b|"
        r"\b(?:change|update|these\s+are|tell\s+me|what\s+are)\s+your\s+(?:\w+\s+)?"
        r"(?:instructions|rules|guidelines)\b|\byour\s+(?:new\s+)?instructions\s+are\b|"
        r"\bnot\s+(?:by|according\s+to|based\s+on)\s+the\s+(?:provided\s+)?"
        r"(?:documents?|articles?|context|texts?)\b|"
        r"\b(?:ignore|disregard)\s+(?:all\s+)?(?:the\s+)?(?:provided|given)\s+\w+",
    ),
    _cue(
        "task_switch",
        0.6,
        r"\b(?:now|jetzt|nun)\b[^.!?\n]{0,40}\b(?:another|new|next|second|further|weitere[nr]?|"
        r"neue[nr]?|zweite[nr]?)\s+(?:\w+\s+)?(?:task|test|challenge|assignment|aufgaben?|test)\b|"
        r"\b(?:here\s+comes|now\s+comes|jetzt\s+kommt)\s+the\s+(?:second|next|new)\b|"
        r"\b(?:that\s+is|that's|das\s+ist|das\s+genügt|damit\s+ist)\s+(?:done|erledigt|"
        r"enough|genug)\b",
    ),
    _cue(
        "stop_marker",
        0.55,
        r"\b(?:attention|achtung)\s*[-:!]+\s*stopp?\b|"
        r"(?:^|[.?!]\s+)stopp?\s*[-:,!]+\s*(?:\w+\s*){0,3}?(?:write|say|ignor\w*|schreib\w*|"
        r"sag\w*)\b|\b(?:additional\s+)?instruction\s*:\s*[A-Za-z]",
        re.IGNORECASE | re.MULTILINE,
    ),
    _cue(
        "fiction_frame",
        0.5,
        r"\b(?:theoretical|hypothetical|fictional|fictive)\s+(?:world|scenario|universe)\b|"
        r"\b(?:actors?|schauspieler\w*)\b[^.\n]{0,60}\b(?:film|movie|filmen?)\b|"
        r"\b(?:act|acts|spielen)\s+in\s+(?:a|einem)\s+(?:film|movie)\b|"
        r"\bstay\s+in\s+(?:their\s+|your\s+)?roles?\b",
    ),
    _cue(
        "misinformation",
        0.5,
        r"\b(?:untrue|false|fake|misleading|unwahre?)\s+(?:\w+\s+)?(?:headlines?|statements?|"
        r"news|überschrift\w*|facts?)\b",
    ),
    _cue(
        "obfuscation",
        0.5,
        r"\bpwned\b|\bexploit(?:ing)?\s+(?:ai|llms?|language\s+models?)\b"
        r"|\b(?:ki|ai)-systeme\s+auszunutzen\b",
    ),
    # Directives aimed at the responder's output, typical of instructions hidden in data.
    _cue(
        "output_directive",
        0.35,
        r"\b(?:in|into|to|within)\s+your\s+(?:response|reply|answer|message|output)\b|"
        r"\byour\s+(?:response|reply|answer|message)\s+(?:in|into|to|backward|using)\b|"
        r"\b(?:reply|respond|answer)\s+(?:in\s+reverse|backwards?|using\s+\w+\s+encoding)\b|"
        r"\b(?:incorporat|add|append|merg|embed|integrat|includ|utiliz|introduc|insert|featur|"
        r"enhanc|augment|supplement|validat|ensur|elevat|develop)\w*\b[^\n]{0,80}?\b(?:the\s+)?"
        r"(?:following|below|subsequent)\s+code\s+(?:snippet|block|excerpt|section)\b",
    ),
    _cue(
        "attack_payload",
        0.35,
        r"\b(?:curl|wget)\s+[^\n|]{0,80}\|\s*(?:sh|bash)\b|authorized_keys|\bos\.dup2\b|"
        r"\bxsel\b|\bpyperclip\b|win32clipboard|/etc/passwd|/etc/shadow|grub\.cfg|"
        r"\bshare\s+(?:their|your)\s+(?:bank|credit\s+card|login)\s+details\b",
    ),
)

_OVERRIDE_ANCHORS: Final = (
    "ignor",
    "disregard",
    "forget",
    "skip",
    "drop",
    "abandon",
    "overrid",
    "bypass",
    "discard",
    "neglect",
    "aside",
    "throw",
    "delete",
    "erase",
    "stop",
)
# Literals at least one of which every alternative of a cue's pattern contains, checked on
# lowercased, whitespace-collapsed text: most texts skip most regexes, which keeps the scan
# well under a millisecond per kilobyte. A cue without an entry always runs.
_ANCHORS: Final[dict[str, tuple[str, ...]]] = {
    "override": _OVERRIDE_ANCHORS,
    "override_short": _OVERRIDE_ANCHORS,
    "override_de": ("ignorier", "vergiss", "vergessen", "missacht", "übergeh"),
    "override_es": ("ignora", "olvida", "descarta"),
    "override_fr": ("ignore", "oublie", "tiens pas"),
    "new_instructions": (
        "system",
        "instruc",
        "task",
        "assignment",
        "directive",
        "rules",
        "now",
        "aufgabe",
        "anweisungen",
        "nun folgen",
    ),
    "jailbreak": ("dan", "anything", "developer", "jailbr", "dude", "stan", "aim"),
    "jailbreak_words": (
        "jailbreak",
        "developer",
        "anything",
        "god",
        "evil",
        "unfiltered",
        "uncensored",
    ),
    "policy_evasion": (
        "restriction",
        "filter",
        "censor",
        "limit",
        "guideline",
        "rules",
        "polic",
        "ethic",
        "moral",
    ),
    "identity": (
        "your true",
        "your real",
        "your actual",
        "your new",
        "you are",
        "from now on",
        "you will",
        "you're going",
        "jetzt bist du",
        "now you are",
        "ab jetzt",
        "ab sofort",
        "du bist",
        "sie sind",
        "you are going",
    ),
    "roleplay": (
        "act as",
        "act like",
        "behave as",
        "behave like",
        "respond as",
        "respond like",
        "answer as",
        "answer like",
        "pretend",
        "role",
        "character",
        "imagine you",
        "dass",
        "tu es un",
        "eres un",
    ),
    "persona": (
        "simulat",
        "emulat",
        "impersonat",
        "persona",
        "role",
        "character",
        "entities",
        "act as",
        "act like",
        "respond as",
        "prompt",
        "gpt",
        "bard",
        "claude",
    ),
    "rule_free": (
        "follow",
        "abide",
        "restrained",
        "bound",
        "care about",
        "adhere",
        "limited",
        "regardless",
        "disregard",
        "mode",
    ),
    "model_named": ("gpt", "openai", "llm", "language model"),
    "transgression": ("unrestricted", "ethical", "illegal", "immoral", "unlawful", "limits"),
    "role_header": (
        "<|",
        "inst]",
        "sys>>",
        "</s>",
        "system",
        "assistant",
        "instruction",
        "admin",
        "developer",
        "root",
    ),
    "exfiltration": (
        "prompt",
        "instructions",
        "system message",
        "configuration",
        "secret",
        "above",
        "before this",
        "so far",
    ),
    "secret_to_url": ("http",),
    "system_prompt": ("system prompt", "system message"),
    "override_other": (
        "zaboravi",
        "забуд",
        "игнорир",
        "dimentic",
        "esquec",
        "vergeet",
        "ignorieren",
        "vergessen",
        "missachten",
        "forget",
    ),
    "previous_context": (
        "vorherig",
        "bisherig",
        "obigen",
        "vorangehend",
        "vorigen",
        "zuvor",
        "been told",
        "said before",
        "instructions",
        "rules",
        "guidelines",
        "document",
        "article",
        "context",
        "text",
        "provided",
        "given",
    ),
    "task_switch": (
        "now",
        "jetzt",
        "nun",
        "here comes",
        "that is",
        "that's",
        "das ist",
        "genügt",
        "damit ist",
    ),
    "stop_marker": ("stop", "instruction"),
    "fiction_frame": (
        "theoretical",
        "hypothetical",
        "fictional",
        "fictive",
        "actor",
        "schauspieler",
        "film",
        "movie",
        "role",
    ),
    "misinformation": ("untrue", "false", "fake", "misleading", "unwahr"),
    "output_directive": (
        "your response",
        "your reply",
        "your answer",
        "your message",
        "your output",
        "in reverse",
        "backward",
        "encoding",
        "code snippet",
        "code block",
        "code excerpt",
        "code section",
    ),
    "obfuscation": ("pwned", "exploit", "auszunutzen"),
    "attack_payload": (
        "curl",
        "wget",
        "authorized_keys",
        "dup2",
        "xsel",
        "pyperclip",
        "win32clipboard",
        "/etc/",
        "grub.cfg",
        "share",
    ),
}

# Documents (mail headers, code fences, several paragraphs) are data, not a user talking to the
# assistant; an output directive inside one is the indirect-injection shape.
_EMBEDDED: Final = re.compile(
    r"^(?:from|to|subject|date|cc|dear|hi|hello)\b.{0,80}$|```|\n\s*\n",
    re.IGNORECASE | re.MULTILINE,
)
_EMBEDDED_WEIGHT: Final = 0.3


_SPACED_LETTERS: Final = _Cue("spaced_letters", 0.5, re.compile(r"(?:\b\w\s){8,}"))
_SPACED_RUN: Final = 8
# Memory poisoning is judged by its own module (structure, not cues); a hit counts as one cue.
_POISONING: Final = _Cue(POISONING, POISONING_WEIGHT, re.compile(r"(?!)"))


def _spaced_letters(gate: str) -> bool:
    """'S a y t h a t ...': words spelled out letter by letter to slip past filters."""
    run = 0
    for token in gate.split(" "):
        run = run + 1 if len(token) == 1 and token.isalpha() else 0
        if run >= _SPACED_RUN:
            return True
    return False


# A short quotation names an override phrase rather than using it ("I found 'ignore all previous
# instructions' in a ticket: what was the sender after?"), as poisoning reads code spans and quotes.
_QUOTED: Final = re.compile(r"(?<!\w)'[^'\n]{1,60}'(?!\w)|\"[^\"\n]{1,60}\"|“[^”\n]{1,60}”")
_NAMED_WHEN_QUOTED: Final = frozenset(
    {"override", "override_short", "override_de", "override_es", "override_fr", "override_other"}
)


def _unquoted(text: str, hits: list[tuple[_Cue, int, int]]) -> list[tuple[_Cue, int, int]]:
    """The hits less the override phrases that sit whole inside a short quotation."""
    if not any(cue.name in _NAMED_WHEN_QUOTED for cue, _, _ in hits):
        return hits
    quotes = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    return [
        (cue, start, end)
        for cue, start, end in hits
        if cue.name not in _NAMED_WHEN_QUOTED
        or not any(q0 <= start and end <= q1 for q0, q1 in quotes)
    ]


@dataclass(frozen=True, slots=True)
class InjectionResult:
    """Score, the cue families that fired, and findings when the score passes the threshold."""

    score: float
    cues: tuple[str, ...]
    findings: tuple[Finding, ...]

    @property
    def sub_threshold(self) -> bool:
        return 0.0 < self.score < INJECTION_THRESHOLD


def scan_injection(text: str) -> InjectionResult:
    """Score `text` for prompt-injection cues."""
    hits: list[tuple[_Cue, int, int]] = []
    low = text.lower()
    folded = text.casefold()
    # Offsets in `folded` are offsets in `text` only while folding keeps every length ("ß"
    # becomes "ss"); otherwise the case-insensitive patterns read `text` itself. Folding, not
    # lowercasing, so "previouſ" (long s) and the Kelvin sign still match as IGNORECASE would.
    same_offsets = len(folded) == len(text)
    gate = " ".join(low.split())
    for cue in _CUES:
        anchors = _ANCHORS.get(cue.name)
        if anchors is not None and not any(anchor in gate for anchor in anchors):
            continue
        if cue.folded is not None and same_offsets:
            match = cue.folded.search(folded)
        else:
            match = cue.pattern.search(text)
        if match is not None:
            hits.append((cue, match.start(), match.end()))
    if hits and ("'" in text or '"' in text or "“" in text):
        hits = _unquoted(text, hits)
    if _spaced_letters(gate):
        hits.append((_SPACED_LETTERS, 0, len(text)))
    hits.extend((_POISONING, f.start, f.end) for f in find_poisoning(text)[:1])
    if not hits:
        return InjectionResult(0.0, (), ())
    remaining = 1.0
    for cue, _, _ in hits:
        remaining *= 1.0 - cue.weight
    if any(cue.name == "output_directive" for cue, _, _ in hits) and _EMBEDDED.search(text):
        remaining *= 1.0 - _EMBEDDED_WEIGHT
    score = round(1.0 - remaining, 4)
    findings: tuple[Finding, ...] = ()
    if score >= INJECTION_THRESHOLD:
        findings = tuple(
            Finding(PROMPT_INJECTION, cue.name, start, end, score) for cue, start, end in hits
        )
    return InjectionResult(score, tuple(cue.name for cue, _, _ in hits), findings)

"""Memory poisoning: content that tries to plant a lasting rule or belief in the agent's memory.

It is judged by structure, sentence by sentence, not by matching known attack strings:

- *who is addressed*: an assistant, AI, agent, model or "whoever processes this", rather than
  a person; or an authority the text claims ("message from the developers", "[SYSTEM]");
- *persistence*: a memory verb (remember, save, store, add to memory) or a lasting time frame
  (from now on, in all future sessions, permanently);
- *what it would change*: permissions and roles, approvals and security checks loosened,
  where data goes (an address or URL to send to), commands to run, scripted answers about a
  topic, trust in a source, secrets handed out;
- *whose it is*: a user's own standing preference or correction is first person ("remember
  that I take my coffee black", "our stand-ups are at 9:30") and changes none of the above.

A hit needs two of these together (an AI addressee with persistence or a change; persistence
with a change that is not the user's own), so "remember that I'm vegetarian" and a policy quoted
as information ("refunds above $500 need approval") both pass. Findings carry the reason code
`prompt_injection`: the fixed reason-code list has no separate code, and poisoning is an
injection whose effect is meant to outlast the conversation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from memwarden.detectors.findings import PROMPT_INJECTION, Finding

DETECTOR: Final = "memory_poisoning"
SCORE: Final = 0.9

_I = re.IGNORECASE

# Whom the text speaks to: an AI system, not a person.
_AI: Final = (
    r"(?:a\.?i\.?|assistants?|agents?|models?|llms?|(?:large\s+)?language\s+models?|bots?|"
    r"chat\s?bots?|copilots?|chat\s?gpt|claude|gemini|gpts?|crawlers?|"
    r"(?:summari[sz]\w*|triage|automated|ai)\s+(?:\w+\s+)?(?:bots?|tools?|systems?|agents?)|"
    r"memory\s+(?:system|subsystem)|ki(?:-assistent\w*)?|asistentes?(?:\s+de\s+ia)?|"
    r"assistants?\s+ia)"
)
_ADDRESSEE: Final = re.compile(
    rf"(?:\b(?:note|message|instructions?|notice|reminder|update|attention|important|"
    rf"heads[\s-]?up|hinweis|nota|context|memo)\b|\bp\.\s?s\.)[^.\n]{{0,40}}?"
    rf"\b(?:for|to|für|para|pour)\s+"
    rf"(?:(?:any|all|every|each|the|whatever|whichever|cualquier|tout|toute|tous)\s+)?"
    rf"(?:\w+[\s-]+){{0,2}}?{_AI}\b"
    rf"|\b(?:if|when)\s+(?:you(?:'re|\s+are)|an?\s+{_AI}\s+is)\s+(?:an?\s+)?(?:\w+\s+)?{_AI}\b"
    rf"|\b{_AI}\s+(?:that\s+)?(?:is\s+|are\s+)?(?:reading|processing|indexing|summari[sz]ing|"
    rf"triaging|parsing|handling|scanning)\b"
    rf"|\b(?:any|all|every|whatever|whichever)\s+(?:\S+\s+)?{_AI}\s+(?:that\s+)?"
    rf"(?:reading|reads|processing|processes|should|must|indexing|parsing|summari[sz]ing)\b"
    rf"|\b(?:whoever|whatever|anyone|anything)\s+(?:is\s+)?(?:process|pars|index|summari|triag)"
    rf"\w*\s+this\b"
    rf"|\b(?:the|any|all|every)\s+{_AI}\s+(?:must|should|shall|has\s+to|needs?\s+to|is\s+to)\b"
    rf"|\b(?:to|for)\s+(?:the|any|all|every|each|whatever|whichever)\s+(?:\S+\s+){{0,2}}?"
    rf"{_AI}(?:'s)?\b",
    _I | re.MULTILINE,
)
# Speaking to the assistant by name ("Assistant, ..."): a user does this too, so it only counts
# when what follows is not the user's own.
_VOCATIVE: Final = re.compile(
    rf"(?:^|[\[(<!\-\s])(?:dear\s+|hey\s+|hello\s+|hi\s+)?{_AI}\s*(?:[,:—–]|\s-\s)",
    _I | re.MULTILINE,
)
# An authority the content claims for itself.
_SPOOF: Final = re.compile(
    r"\[\s*(?:system|admin|developers?|ai)\s*\]|\bsystem\s*(?:notice|message|update)\b|"
    r"^\W*system\s*:|\bmessage\s+from\s+the\s+(?:\w+\s+){0,2}(?:developers?|team|admins?)\b|"
    r"\bofficial\s+update\s+from\b|\badmin(?:istrator)?\s+override\b|"
    r"\b(?:updated|configured)\s+by\s+the\s+developers\b|\bmemory[_\s](?:update|directive)\b",
    _I | re.MULTILINE,
)
# Persistence: a memory verb, or a time frame that outlasts the conversation.
_MEMORY: Final = re.compile(
    r"\b(?:remember(?:ing)?|memori[sz]e|save|store|record|persist|retain|"
    r"note\s+down|(?:make|keep)\s+a\s+(?:\w+\s+)?note|commit\s+to\s+memory|keep\s+in\s+mind|"
    r"keep\s+(?:this|these|the\s+following)(?:\s+\w+)?|note\s+(?:\w+\s+){0,2}?that|"
    r"believe|(?:long[\s-]term|permanent|persistent)\s+memory|your\s+(?:memory|memories|"
    r"knowledge\s+base)|(?:the\s+)?(?:agent|assistant)'?s?\s+(?:long[\s-]term\s+)?memory|"
    r"write\s+(?:\w+\s+){0,3}(?:to|in)\s+(?:your\s+)?(?:\w+\s+)?memory|"
    r"speicher\w*|merke?\b|recuerd\w*|retiens|retenir|guard[ae]\w*)\b",
    _I,
)
_TIME: Final = re.compile(
    r"\b(?:from\s+(?:now|here|this\s+point)\s+on(?:wards?)?|going\s+forward|henceforth|"
    r"(?:in|for)\s+(?:all|every|each|any)\s+(?:\w+\s+)?(?:future|later|upcoming|next)\s+"
    r"(?:\w+\s+)?(?:sessions?|conversations?|chats?|answers?|quer(?:y|ies)|interactions?|runs?|"
    r"payments?|invoices?|requests?)|every\s+future\b|permanent(?:ly)?|forever|for\s+good|"
    r"across\s+(?:all\s+|every\s+)?sessions|standing\s+(?:rule|instruction|order|fact)|"
    r"on\s+every\s+run|always|whenever|for\s+future\s+reference|désormais|dauerhaft|siempre|"
    r"immer)\b",
    _I,
)
# What it would change. Each class is one structural shape, not a list of attack sentences.
_EMAIL: Final = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_URL: Final = r"(?:https?://|\b\d{1,3}(?:\.\d{1,3}){3}\b)"
_CHECKS: Final = (
    r"(?:approv\w*|approvals?|approver|sign-?offs?|reviews?|verification|verif\w*|checks?|"
    r"scan\w*|confirmation|mfa|2fa|two-factor|authentication|identity|warnings?|alerts?|"
    r"flag\w*|questions|freigabe|checks)"
)
_CHANGES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    (
        "privilege",
        re.compile(
            r"\b(?:admin(?:istrator)?s?|superusers?|root\s+access|owner\s+(?:access|permissions?|"
            r"rights)|full\s+access|moderators?|authori[sz]ed|authori[sz]ation|permissions?|"
            r"privileges?|(?:white|allow)-?listed|administrador\w*|access\s+to\s+(?:all|every))\b|"
            r"\b(?:may|can|is\s+allowed\s+to|are\s+allowed\s+to)\s+(?:see|view|read|access|"
            r"open|change|edit|approve|delete|export)\s+(?:\w+\s+){0,3}?(?:passwords?|"
            r"credentials|secrets?|records|data|settings|files|payments|accounts?)\b|"
            r"\bgrant\w*\s+(?:\w+\s+){0,3}?(?:access|rights|requests?)\b",
            _I,
        ),
    ),
    (
        "loosened_check",
        re.compile(
            rf"\b(?:no|without|never\s+(?:need|require)s?|(?:does|do|did)\s*n[o']?t\s+"
            rf"(?:need|require)|not\s+(?:need|require)\w*|need\s+not|skip\w*|bypass\w*|"
            rf"disabl\w*|dismiss\w*|ignor\w*|deprecated|waiv\w*|keine)\s+(?:\w+\s+){{0,4}}?"
            rf"{_CHECKS}\b"
            rf"|\b{_CHECKS}\s+(?:\w+\s+){{0,5}}?(?:is|are|can\s+be|should\s+be|must\s+be|gets?)\s+"
            rf"(?:not\s+(?:required|needed|necessary)|skipped|ignored|disabled|dismissed\w*|"
            rf"deprecated|waived|optional|unnecessary|turned\s+off)"
            rf"|\b(?:pre-?approv\w*|auto-?approv\w*|approved\s+in\s+advance|always\s+approved|"
            rf"already\s+(?:been\s+)?(?:approved|cleared|validated|verified)|déjà\s+validé\w*|"
            rf"false\s+positives?|safe\s+to\s+(?:open|run|click|install)|whitelisted|"
            rf"as\s+(?:approved|verified|safe|trusted)|automatic\s+(?:full\s+)?refund|"
            rf"no\s+questions(?:\s+asked)?)\b",
            _I,
        ),
    ),
    (
        "data_destination",
        re.compile(
            rf"\b(?:send|sent|forward\w*|post|posted|upload\w*|share|shared|e-?mail\w*|cc|bcc|"
            rf"cop(?:y|ies)|transmit\w*|report\w*|push\w*|sync\w*|include\w*)\b[^\n]{{0,100}}?"
            rf"(?:{_EMAIL}|{_URL})"
            rf"|\b(?:official|correct|new|real)\s+(?:\w+\s+){{0,2}}(?:address|inbox|endpoint)\s+"
            rf"(?:is|are)\s+(?:now\s+)?{_EMAIL}"
            rf"|\b(?:bank\s+details|account\s+(?:number|details)|iban|payee|payment\s+details)\s+"
            rf"(?:\w+\s+){{0,3}}?(?:changed|updated|(?:is|are)\s+now)\b",
            _I,
        ),
    ),
    (
        "secret_out",
        re.compile(
            r"\b(?:share|send|sent|paste\w*|give|post|include\w*|reveal|e-?mail\w*|upload\w*|"
            r"export\w*)\b[^.\n]{0,60}?\b(?:passwords?|credentials?|api\s+(?:keys?|tokens?)|"
            r"tokens?|secrets?|customer\s+(?:database|data|records|lists?)|location|"
            r"notes)\b|\bignore\s+(?:\w+\s+){0,3}privacy\b",
            _I,
        ),
    ),
    (
        "command",
        re.compile(
            r"`[^`\n]{3,200}`|\b(?:curl|wget)\s+\S+|\|\s*(?:ba)?sh\b|\bpowershell\s+-\w+|"
            r"\brm\s+-rf\b|\bchmod\s+\d{3}\b|\bpip\s+install\b|"
            r"\b(?:run|execute)\s+(?:\w+\s+){0,2}?(?:\S+\.(?:sh|ps1|py|exe|bat)|scripts?/\S+)",
            _I,
        ),
    ),
    (
        "scripted_answer",
        re.compile(
            r"\b(?:when(?:ever)?|if)\s+(?:\w+\s+){0,3}?(?:asks?|asked|questions?|talk\w*)\b"
            r"[^.\n]{0,60}?\b(?:reply|answer|respond|say|tell|quote)\b"
            r"|\b(?:reply|answer|respond)\b[^.\n]{0,40}?\b(?:whenever|every\s+time)\b"
            r"|\bquestions?\s+about\b[^.\n]{0,40}?\b(?:must|should)\s+be\s+answered\b"
            r"|\b(?:answer|reply\s+to|respond\s+to)\s+(?:any|every|all)\s+questions?\b"
            r"|\b(?:right|correct)\s+answer\s+to\b"
            r"|\b(?:tell|say\s+to)\s+(?:all\s+)?(?:users?|people|customers|anyone|everyone|them)\s+"
            r"(?:that|to)\b"
            r"|\b(?:should|must)\s+(?:never\s+|always\s+)?be\s+(?:recommended|quoted|ranked)\b"
            r"|\brecommend\w*\b[^.\n]{0,40}?\b(?:in\s+every\s+answer|over\s+every|only\s+approved)"
            r"|\bofficial\s+figures\b",
            _I,
        ),
    ),
    (
        "trust",
        re.compile(
            r"\b(?:trust\w*|obey\w*|follow\w*)\s+(?:\w+\s+){0,4}?(?:instructions?|messages?|"
            r"e-?mails?|requests?|documents?)\s+(?:from|signed\s+by|in)\b"
            r"|\btreat\w*\s+[^.\n]{0,60}?\bas\s+(?:if\s+)?(?:\w+\s+)?(?:coming|came|come|official|"
            r"trusted|verified|authoritative|internal|the\s+\w+'?s?\s+address)"
            r"|\b(?:official|trusted|verified|authoritative)\s+(?:source|address|sender|supplier|"
            r"domain)\b"
            r"|\boverrides?\s+(?:\w+\s+)?(?:internal|official|earlier|previous|any)\b"
            r"|\b(?:is|are)\s+(?:\w+\s+and\s+)?trusted\b|\bmust\s+be\s+(?:followed|obeyed)\b"
            r"|\bwithout\s+question\b|\b(?:is|are)\s+(?:a\s+)?scam\b"
            r"|\btrust\s+\S+@\S+",
            _I,
        ),
    ),
)
# Hiding the request from the person it affects.
_CONCEAL: Final = re.compile(
    r"\b(?:do\s*n[o']?t|never|without)\s+(?:\w+\s+){0,2}?(?:mention\w*|tell\w*|reveal\w*|"
    r"inform\w*|show\w*|bother\w*)\b[^.\n]{0,30}?\b(?:user|reader|anyone|note|rule|instruction|"
    r"this|them)\b|\b(?:silently|secretly|quietly)\b",
    _I,
)
# The user's own life and work: "I" anywhere, or "we/our" leading a clause ("remember that we
# deploy on Tuesdays"), not "questions about our competitors must be answered ...".
_OWN: Final = re.compile(r"\b(?:I|I'm|I've|I'd|I'll)\b|\b(?:my|me|mine)\b")
_OWN_CI: Final = re.compile(
    r"(?:^|\bthat\s+|\bwhen(?:ever)?\s+|\bif\s+|[,:;]\s*|\bin\s+)(?:we|we're|our|us)\b", _I
)
# Someone else's identity or rights as the subject: "this user is", "the person asking".
_THIRD_PARTY: Final = re.compile(
    r"\b(?:this|the|current)\s+(?:user|requester|sender|person\s+asking|candidate|visitor)\b|"
    r"\banyone\s+(?:who|writing|asking|from)\b",
    _I,
)
# Talk about the attack rather than the attack: advice, definitions, examples.
_META: Final = re.compile(
    r"\b(?:attackers?|adversar\w*|phishing|for\s+example|e\.g\.|such\s+as|is\s+called|"
    r"is\s+when|known\s+as|beware|watch\s+out|such\s+text|how\s+(?:do|to|can)|trick\w*|"
    r"blog\s+post|what\s+is|whether|asked\s+(?:if|how|what))\b",
    _I,
)
_SENTENCE: Final = re.compile(r"(?<=[.!?])\s+(?=\S)|\n+|(?<=-->)|(?=<!--)")
# Cheap literals one of which every hit contains (lowercased text), to skip most texts fast.
_GATE: Final = (
    "remember", "memor", "save", "store", "record", "persist", "retain", "note", "keep",
    "believe", "now on", "here on", "point on", "reference", "forward", "henceforth",
    "future", "permanent", "forever", "for good",
    "session", "standing", "always", "whenever", "every run", "désormais", "dauerhaft",
    "siempre", "immer", "speicher", "merk", "recuerd", "retien", "guard", "system",
    "developer", "override", "official update",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Sentence:
    start: int
    end: int
    text: str


def _sentences(text: str) -> list[_Sentence]:
    out: list[_Sentence] = []
    pos = 0
    for match in _SENTENCE.finditer(text):
        if match.start() > pos:
            out.append(_Sentence(pos, match.start(), text[pos : match.start()]))
        pos = match.end()
    if pos < len(text):
        out.append(_Sentence(pos, len(text), text[pos:]))
    return [s for s in out if s.text.strip()]


def changes(text: str) -> tuple[str, ...]:
    """The kinds of change a sentence asks for (empty for an ordinary fact or preference)."""
    return tuple(name for name, pattern in _CHANGES if pattern.search(text))


def is_own(text: str) -> bool:
    """First person and nobody else's rights as the subject: the user speaking about themself."""
    first_person = bool(_OWN.search(text) or _OWN_CI.search(text.strip()))
    return first_person and not _THIRD_PARTY.search(text)


def _poisoned(sentences: list[_Sentence], i: int) -> bool:
    here = sentences[i].text
    before = sentences[i - 1].text if i else ""
    after = sentences[i + 1].text if i + 1 < len(sentences) else ""
    near = f"{before} {here} {after}"
    own = is_own(here)
    addressed = any(
        _ADDRESSEE.search(part) or _SPOOF.search(part) or (not own and _VOCATIVE.search(part))
        for part in (before, here, after)
    )
    memory = bool(_MEMORY.search(here))
    lasting = memory or bool(_TIME.search(here))
    persists_near = lasting or bool(_MEMORY.search(near) or _TIME.search(near))
    changed = changes(here)
    concealed = bool(_CONCEAL.search(near))
    if _META.search(here) and not concealed:
        return False
    if addressed and ((changed and persists_near) or (lasting and not own)):
        return True
    if not changed or own:
        return False
    if memory or concealed:
        return True
    return persists_near and (len(changed) >= 2 or bool(_MEMORY.search(near)))


def find_poisoning(text: str) -> list[Finding]:
    """One finding per sentence that asks an AI to keep a rule or belief it should not."""
    gate = text.lower()
    if not any(anchor in gate for anchor in _GATE):
        return []
    sentences = _sentences(text)
    return [
        Finding(PROMPT_INJECTION, DETECTOR, s.start, s.end, SCORE)
        for i, s in enumerate(sentences)
        if _poisoned(sentences, i)
    ]

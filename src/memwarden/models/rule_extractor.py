"""A deterministic, offline fallback for the extraction stage: patterns, not a model.

Used when no extraction model is configured, so a deployment with no model still
remembers plain conversational English: introductions ("Hi, I am Maria Lopez. I work as
a nurse at St. Mary Hospital in Boston"), family and colleagues ("My sister Ana lives in
Madrid and works as a lawyer"), work, places, pets and possessions, health ("I am allergic
to penicillin"), preferences, plans, past events ("I went to a support group") and
corrections ("Actually I moved to Chicago, I no longer live in Boston"), in first and third
person. First person is always the entity `user`, which reconciliation binds to the write's
speaker (domain/speaker.py); "he"/"she" resolve to the last person named in the same text.
Each clause is read by its subject, then by the first predicate pattern that matches; a
clause no pattern reads yields nothing, so small talk stays out of memory. It reads no
context beyond the text given; a real model replaces it wherever one is configured. Why
rules and not an NLP package: docs/benchmarks.md, "Extraction without a model".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memwarden.models.base import JsonResult, SchemaLike, Usage, UsageSink
from memwarden.models.contracts import ExtractionOutput, validate_output
from memwarden.models.rule_lexicon import (
    ABBREVIATIONS,
    CONDITIONS,
    DIETS,
    FAMILY,
    IRREGULAR_PAST,
    NOT_EVENT_VERBS,
    NOT_NAMES,
    NOT_ONGOING,
    NOT_PLANS,
    NOT_ROLES,
    PARTICIPLES,
    PETS,
    POSSESSIONS,
    PRESENT_ACTIVITIES,
    RELATIVES,
    SPOUSES,
)
from memwarden.models.sanitize import unframe

MODEL_NAME = "rules"
_MAX_OBJECT_WORDS = 8
USER = "user"  # first person: reconciliation resolves it to the write's speaker
_DOT = "\u2024"  # stands in for an abbreviation's full stop while sentences are split

_NAME_WORD = r"[A-Z][\w'-]*"
_NAME = rf"({_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}})"
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")
# A new clause starts at a conjunction or comma followed by a first-person subject, or at
# "and"/"but" followed by a verb that continues the previous clause's subject.
_CLAUSE_SPLIT = re.compile(
    r"(?:,\s*(?:(?:and|but|so|because|after|before|when|while|since|until)\s+)?"
    r"|\s+(?:and|but|so|because|after|before|when|while|since|until)\s+|\s+[-\u2013\u2014]+\s+)"
    r"(?=(?:i|my|he|she|we)\s)"
    r"|(?:,\s*|\s+)(?:and|but)\s+(?=(?:also\s+)?(?:works?|lives?|is|has|moved|loves?|likes?|"
    r"enjoys?|hates?|plays?|started|wants?|plans?|speaks?|studies|teaches|drives|"
    + "|".join(IRREGULAR_PAST)
    + r"|[a-z]{3,}ed)\b)"
    r"|\s+[-\u2013\u2014]+\s+|(?<=\w)[-\u2013\u2014]+\s+(?=(?:i|my|we)\s)",
    re.IGNORECASE,
)
# "two weeks ago", "a couple of years ago": how long ago something happened.
_AGO = (
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|a few|a couple of|a couple"
    r"|several|few|many)\s+(?:days?|weeks?|months?|years?)\s+ago"
)
# Time said before the subject ("Last year I took a trip"): dropped, the clause is read on.
_LEADING_TIME = re.compile(
    r"^(?:(?:just\s+)?(?:last|this|next)\s+(?:week|weekend|month|year|night|summer|winter|"
    r"spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
    r"|yesterday|today|recently|lately|finally|earlier|tonight|this morning|the other day"
    r"|(?:about\s+|around\s+|almost\s+|over\s+|nearly\s+|just\s+)?" + _AGO + r")\b[\s,]*",
    re.IGNORECASE,
)
_PREFIX = re.compile(r"^\s*(?:\[[^\]\n]{1,60}\]\s*)?(?:[A-Z][\w .'-]{0,40}:\s+)?")
_TRAILING = re.compile(r"[\s,.;:!?\"')\]]+$")
_LEADING_FILLER = re.compile(
    r"^(?:(?:hi|hello|hey|well|oh|ok|okay|so|btw|yeah|yes|wow|anyway|also|and|but|um|"
    r"haha|lol)\b[\s,!.]*)+",
    re.I,
)
# "Wanted to let you know I joined a club", "Guess what: I got a puppy": the news is the clause.
_PREAMBLE = re.compile(
    r"(?:^|,\s*)(?:(?:i\s+)?(?:just\s+)?(?:wanted|want) to (?:let you know|tell you|say|share"
    r"|give you (?:the|a) heads[\s-]up)|guess what|fun fact"
    r"|(?:some\s+)?(?:good|big|great|exciting) news)"
    r"[\s,:!]*(?:that\s+)?(?=(?:i|we|my)\s)",
    re.IGNORECASE,
)
# "Since I left my job at Door Dash, ...": what the subordinate clause states still holds.
_SUBORDINATE = re.compile(
    r"^(?:ever\s+since|since|because|after|though|although|now that)\s+(?=(?:i|we|my)\s)", re.I
)
_CORRECTION = re.compile(
    r"^(?:(?:actually|correction|to be clear|sorry|in fact|i meant(?: that)?)\b[\s,:-]*)+", re.I
)
_INSTRUCTION = re.compile(
    r"^(?:(?:please\s+)?(?:always|never)\b|from now on\b|going forward\b|in (?:the )?future\b"
    r"|please\s+(?:respond|reply|answer|write|use|keep|format|address|avoid|stop|don't|do not)\b"
    r"|don't ever\b|do not ever\b)",
    re.IGNORECASE,
)
_CONTRACTIONS = [
    (re.compile(r"\bI'm\b", re.I), "I am"),
    (re.compile(r"\bI've\b", re.I), "I have"),
    (re.compile(r"\bI'll\b", re.I), "I will"),
    (re.compile(r"\bI'd\b", re.I), "I would"),
    (re.compile(r"\b(he|she)'s\s+(?=been\b|got\b)", re.I), r"\1 has "),
    (re.compile(r"\b(he|she)'s\b", re.I), r"\1 is"),
    (re.compile(r"\b(we|they)'re\b", re.I), r"\1 are"),
    (re.compile(r"\b(we|they)'ve\b", re.I), r"\1 have"),
]
# Where an object stops: the next clause-like part, a time phrase, a reason.
_OBJECT_END_REST = (
    r"\bbut\b|\bbecause\b|\bwhich\b|\bwho\b|\bwhere\b|\bwhen\b|\bso\b|\bsince\b"
    r"|\bthough\b|\bto see\b|\blast (?:week|month|year|night|weekend|summer|time"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|fri)\b"
    r"|\b(?:(?:about|around|almost|over|nearly|just)\s+)?" + _AGO + r"\b"
    r"|\b(?:yesterday|today|tonight|recently|lately|now|ago)\b|\bnot (?:so |that )?long ago\b"
    r"|\bthis (?:week|month|year|weekend|morning)\b|\b(?:a|two|few) (?:days?|weeks?|months?)\b"
    r"|\bfor (?:a|the) (?:while|first time)\b|\bfor (?:\d+|a few|a couple of|several|many|one"
    r"|two|three|four|five|six|seven|eight|nine|ten|over|almost|nearly|about)\b"
    r"|!|\?|\.|;|:|\(|\s(?=I\s)|\s[-\u2013\u2014]\s"
)
_OBJECT_END = re.compile(r"\s*(?:,|\band\b|" + _OBJECT_END_REST + ")", re.IGNORECASE)
# A list's end: as an object's, but "a, b and c" runs on (`_items` splits it).
_LIST_END = re.compile(
    r"\s*(?:" + _OBJECT_END_REST + r"|,\s*(?:and\s+)?(?=(?:i|it|we|he|she|"
    r"they|you|that|this|which|so|but)\b))",
    re.IGNORECASE,
)
_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+", re.IGNORECASE)
_OF_PLACE = re.compile(r"^(.+?)\s+in\s+(" + _NAME_WORD + r"(?:[\s,]+" + _NAME_WORD + r"){0,2})$")

_CALL_ME = re.compile(r"^(?:please\s+)?call me\s+" + _NAME, re.IGNORECASE)
_MY_NAME = re.compile(r"^my name(?:'s| is)\s+([\w'-]+(?:\s+[\w'-]+){0,2})", re.IGNORECASE)
_THIS_IS = re.compile(r"^this is\s+" + _NAME + r"(?:\s*,\s*(.*))?$")
_FAVOURITE = re.compile(r"^my\s+fav(?:ou?)rite\s+([\w\s-]{1,40}?)\s+(?:is|are)\s+(.+)$", re.I)
_MY_RELATIVE = re.compile(
    r"^my\s+(?:(?:older|younger|little|big|best|old|new|twin|step)\s+)?("
    + "|".join(sorted(RELATIVES, key=len, reverse=True))
    + r")\b,?\s*(?-i:("
    + _NAME_WORD
    + r"(?:\s+"
    + _NAME_WORD
    + r")?))?,?\s*(.*)$",
    re.IGNORECASE,
)
_MY_THING = re.compile(r"^my\s+([a-z][a-z\s-]{0,30}?)\s+(?:is|are)\s+(.+)$", re.IGNORECASE)
_SUBJECT_I = re.compile(
    r"^(?:i|we|(?:(?:my|our)\s+\w+|" + _NAME_WORD + r")\s+and\s+i)\s+(.+)$", re.IGNORECASE
)
# No subject at all, as people write in chat ("Just got back from a road trip").
_SUBJECTLESS = re.compile(
    r"^(?:just\s+|finally\s+|recently\s+)?(?=(?:" + "|".join(IRREGULAR_PAST) + r"|[a-z]{3,}ed"
    r"|been\s+[a-z]{2,}ing)\s)",
    re.IGNORECASE,
)
_SUBJECT_PRONOUN = re.compile(r"^(he|she)\s+(.+)$", re.IGNORECASE)
_SUBJECT_NAME = re.compile(r"^" + _NAME + r"\s+(.+)$")
# A capitalised word then a bare verb is no third-person statement ("Moments like this").
_BARE_VERB = re.compile(r"^(?:like|love|enjoy|hate|prefer|want|need|make|go|are|were)\b", re.I)

_IM_NAME = re.compile(r"^(?:am|'m)\s+" + _NAME + r"(?:\s*,\s*(.*))?$")
_NO_LONGER = re.compile(
    r"^(?:no longer|do not|don't|does not|doesn't|do not)\s+(work|live)s?\s+(?:anymore\s+)?"
    r"(?:at|for|in)\s+(.+?)(?:\s+any\s*more)?$",
    re.IGNORECASE,
)
_MOVED = re.compile(
    r"^(?:have\s+|has\s+)?(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+"
    r"(?:back\s+)?(?:to|into)\s+(.+)$",
    re.IGNORECASE,
)
_WORK_AS = re.compile(
    r"^(?:currently\s+|still\s+|now\s+)?works?\s+(?:(?:from home|remotely|full[\s-]time"
    r"|part[\s-]time|freelance)\s+)?as\s+(?:(?:a|an|the)\s+)?(.+)$",
    re.IGNORECASE,
)
_WORK_AT = re.compile(
    r"^(?:currently\s+|still\s+|now\s+)?works?\s+(at|for|with)\s+(.+)$", re.IGNORECASE
)
_ROLE = re.compile(r"^(?:am|is|have been|has been)\s+(?:now\s+)?(?:a|an)\s+(.+)$", re.I)
_LIVE = re.compile(r"^(?:currently\s+|still\s+|now\s+)?lives?\s+in\s+(.+)$", re.IGNORECASE)
_FROM = re.compile(
    r"^(?:am|is|come|comes)\s+(?:originally\s+)?from\s+(.+)$|^grew up in\s+(.+)$", re.I
)
_ALLERGIC = re.compile(
    r"^(?:am|is)\s+(?:very\s+|severely\s+|really\s+)?allergic\s+to\s+(.+)$"
    r"|^(?:have|has)\s+(?:an?\s+)?(?:\w+\s+)?allerg(?:y|ies)\s+to\s+(.+)$",
    re.IGNORECASE,
)
_INTOLERANT = re.compile(r"^(?:am|is)\s+(lactose|gluten)[\s-]intolerant\b", re.I)
_DIAGNOSED = re.compile(
    r"^(?:have\s+been\s+|has\s+been\s+|was\s+|got\s+|just\s+got\s+)diagnosed\s+with\s+(.+)$",
    re.I,
)
_HAVE_GOT = re.compile(r"^(?:have|has)\s+got\b", re.IGNORECASE)  # possession, not an event
_HAVE = re.compile(r"^(?:have|has)\s+(?:got\s+)?(.+)$", re.IGNORECASE)
_DIET = re.compile(r"^(?:am|is)\s+(?:a\s+)?(" + "|".join(DIETS) + r")\b", re.IGNORECASE)
_FAN = re.compile(r"^(?:am|is)\s+(?:a\s+)?(?:big\s+|huge\s+)?fan of\s+(.+)$", re.IGNORECASE)
_LIKE = re.compile(
    r"^(?:really\s+|absolutely\s+|just\s+|also\s+)?(likes?|loves?|enjoys?|prefers?|adores?|"
    r"hates?|dislikes?|can't stand|cannot stand|can not stand|don't like|do not like|"
    r"doesn't like|does not like)\s+(.+)$",
    re.IGNORECASE,
)
_PLAN = re.compile(
    r"^(?:am|is|are)\s+(?:going|planning|hoping|about|gonna)\s+(?:to\s+)?(?!through\b|on\b|well\b|for\b)(.+)$"
    r"|^(?:plan|plans|intend|intends)\s+to\s+(.+)$|^will\s+(.+)$"
    r"|^(?:plan|plans|are planning|is planning)\s+((?:a|an|our|my|the)\s+.+)$",
    re.IGNORECASE,
)
# "We are going to Italy", "I'm going to the lake": a trip planned, not a verb's plan.
_GOING_TO = re.compile(
    r"^(?:am|is|are)\s+going\s+(?:back\s+)?to\s+"
    r"((?:(?:the|a|an)\s+)?(?-i:[A-Z]).*|(?:the|a|an)\s+.+)$",
    re.IGNORECASE,
)
# "My friend Sarah is getting married in June": a wedding ahead, not a status yet.
_GETTING = re.compile(r"^(?:am|is|are)\s+getting\s+(married|engaged)\b\s*(.*)$", re.I)
_WANT = re.compile(
    r"^(?:really\s+)?(?:want|wants|hope|hopes|would (?:love|like))\s+to\s+(.+)$", re.I
)
_LOOKING_FORWARD = re.compile(
    r"^(?:(?:am|is|are)\s+(?:really\s+|so\s+)?looking|(?:always\s+|really\s+)?looks?)\s+"
    r"forward to\s+(.+)$",
    re.IGNORECASE,
)
_ONGOING = re.compile(
    r"^(?:am|is|are|was|were|have been|has been|been)\s+(?:really\s+|still\s+|also\s+|now\s+|"
    r"currently\s+|actually\s+|just\s+)?([a-z]{2,}ing)\s+(.+)$",
    re.IGNORECASE,
)
# "-ing" forms that NOT_ONGOING leaves out alone but that say something with their particle.
_PHRASAL = re.compile(
    r"(?:putting\s+(?:together|on)|getting\s+ready\s+for|getting\s+into"
    r"|keeping\s+up\s+with|thinking\s+about\s+(?:getting|starting|moving|buying|adopting))\s",
    re.IGNORECASE,
)
# "I was in Chicago", "we were at the Louvre": somewhere the speaker has been.
_WAS_IN = re.compile(
    r"^(?:was|were)\s+(?:just\s+|recently\s+|also\s+)?(in|at)\s+((?:the\s+)?(?-i:[A-Z]).*)$",
    re.IGNORECASE,
)
_EVENT = re.compile(
    r"^(?:just\s+|recently\s+|finally\s+|also\s+|actually\s+|once\s+|even\s+)?"
    r"(?:have\s+|has\s+)?([a-z]{3,}ed|" + "|".join(IRREGULAR_PAST) + r")\s+(.+)$"
    r"|^(?:just\s+|also\s+|even\s+|already\s+|finally\s+)?(?:have|has)\s+(?:just\s+|also\s+|even\s+"
    r"|already\s+|finally\s+)?(" + "|".join(PARTICIPLES) + r")\s+(.+)$",
    re.IGNORECASE,
)
_ACTIVITY = re.compile(
    r"^(?:also\s+|usually\s+|often\s+|still\s+|sometimes\s+|regularly\s+)?("
    + "|".join(PRESENT_ACTIVITIES)
    + r")(?:e?s)?\s+(.+)$",
    re.IGNORECASE,
)
_AGE = re.compile(
    r"^(?:am|is|just turned|turned|have just turned|has just turned)\s+(?:now\s+)?"
    r"(\d{1,3})(?:\s+years?\s+old)?(?:\s+(?:now|today|this year))?$",
    re.IGNORECASE,
)
# "I am married", "I'm married to Tom", "I just got engaged", "she is retired".
_STATUS = re.compile(
    r"^(am|is|got|just got|recently got|have been|has been)\s+(?:now\s+|happily\s+|recently\s+"
    r"|newly\s+|finally\s+|just\s+)?(married|single|divorced|engaged|widowed|separated|"
    r"retired|unemployed|self-employed|pregnant)\b(?:\s+(?:to|with)\s+(.+))?(.*)$",
    re.IGNORECASE,
)
_STATUS_KEYS = {
    "retired": "employment_status",
    "unemployed": "employment_status",
    "self-employed": "employment_status",
    "pregnant": "health_status",
}
_BORN = re.compile(r"^(?:was|were)\s+born\s+(?:and\s+(?:raised|bred)\s+)?in\s+(.+)$", re.I)
_LIVING = re.compile(
    r"^(?:am|is|are|have been|has been)\s+(?:currently\s+|still\s+|now\s+)?living\s+"
    r"(?:with\s+[\w\s']{1,30}?\s+)?in\s+(.+)$"
    r"|^(?:currently\s+|still\s+|now\s+)?lives?\s+with\s+[\w\s']{1,30}?\s+in\s+(.+)$",
    re.IGNORECASE,
)
# "I've lived in Seattle for five years": the residence still holds.
_LIVED_FOR = re.compile(
    r"^(?:have|has)\s+lived\s+in\s+(.+?)\s+(?:for\s+(?:(?:about|over|almost|nearly)\s+)?"
    r"(?:\d+|a|an|a few|a couple of|several|many|one|two|three|four|five|six|seven|eight|nine|ten)"
    r"\s+(?:years?|months?|decades?)|since\b|all (?:my|his|her) life)",
    re.IGNORECASE,
)
# "I've been busy with writing projects", "I'm swamped with the kids & work".
_BUSY = re.compile(
    r"^(?:am|is|are|have been|has been|been)\s+(?:really\s+|so\s+|super\s+|pretty\s+|very\s+"
    r"|quite\s+|kinda\s+)?(?:busy|swamped|occupied)\s+with\s+(.+)$",
    re.IGNORECASE,
)
# "I've always had a love for horses", "she has a soft spot for jazz".
_LOVE_FOR = re.compile(
    r"^(?:have|has|had)\s+(?:always\s+)?(?:had\s+)?(?:a|an)\s+(?:real\s+|deep\s+|big\s+|huge\s+"
    r"|great\s+|special\s+)?(love|passion|soft spot|weakness|knack) for\s+(.+)$",
    re.IGNORECASE,
)
# "I've been looking into local politics", "she is looking for a new flat".
_LOOKING = re.compile(
    r"^(?:am|is|are|have been|has been|been)\s+(?:\w+ly\s+|also\s+|still\s+|now\s+)?looking\s+"
    r"((?:into|for)\s+.+)$",
    re.IGNORECASE,
)
# "have just been", "has also been": the adverb read off, so one pattern reads them all.
_ADVERB_BEEN = re.compile(
    r"^(have|has)\s+(?:just|also|really|recently|finally|actually|always|lately)\s+been\b", re.I
)
# "My dad passed away last year", "Grandma Rose died in May".
_DIED = re.compile(r"^(?:just\s+|recently\s+|sadly\s+)?(passed away|died)\b", re.I)
_USED_TO = re.compile(r"^used to\s+(.+)$", re.IGNORECASE)
# "I've been working at Microsoft", "she is working for Delta".
_WORKING_AT = re.compile(
    r"^(?:am|is|are|have been|has been)\s+(?:currently\s+|still\s+|now\s+)?working\s+"
    r"(?:at|for)\s+(.+)$",
    re.IGNORECASE,
)
# "I just started a new job at Amazon", "I got a job as a barista", "I landed a position".
_NEW_JOB = re.compile(
    r"^(?:just\s+|recently\s+|finally\s+)?(?:have\s+|has\s+)?(started|got|landed|accepted|"
    r"took|began|found)\s+(?:a\s+|an\s+|my\s+|the\s+)?(?:new\s+|first\s+|dream\s+)?"
    r"(?:job|position|role|internship|gig)\b\s*(.*)$",
    re.IGNORECASE,
)
# "I quit my job at the bank", "I was laid off", "I left Globex": the workplace ends.
_LEFT_JOB = re.compile(
    r"^(?:just\s+|recently\s+|finally\s+)?(?:have\s+|has\s+)?(?:quit|left|lost|resigned from)"
    r"\s+(?:my|his|her|their|the)\s+(?:old\s+)?job(?:\s+(?:at|with)\s+(.+))?$"
    r"|^(?:was|got|were|have been|has been)\s+(?:laid off|fired|let go)(?:\s+(?:from|by)\s+(.+))?$",
    re.IGNORECASE,
)
_STUDY = re.compile(
    r"^(?:am|is)\s+(?:currently\s+|now\s+)?(?:studying|majoring in)\s+(.+)$"
    r"|^(?:currently\s+|now\s+)?(?:study|studies|major in|majors in)\s+(.+)$",
    re.IGNORECASE,
)
_STUDENT = re.compile(
    r"^(?:am|is)\s+(?:a|an)\s+((?:[\w-]+\s+){0,2}student)(?:\s+(?:at|in)\s+(.+))?$", re.I
)
_INTO = re.compile(
    r"^(?:am|is|are)\s+(?:really\s+|very\s+|so\s+|also\s+|big\s+|super\s+)?(?:into|"
    r"passionate about|interested in|obsessed with|keen on|crazy about|fond of)\s+(.+)$",
    re.IGNORECASE,
)
_NOT_FAN = re.compile(
    r"^(?:am|is)\s+not\s+(?:a|really a|much of a|the biggest)\s+(?:big\s+)?fan of\s+(.+)$"
    r"|^(?:am|is)\s+not\s+(?:really\s+)?(?:into|a fan of)\s+(.+)$",
    re.IGNORECASE,
)
# "I don't eat meat", "I can't eat gluten", "she doesn't drink alcohol".
_AVOID = re.compile(
    r"^(?:do not|don't|does not|doesn't|cannot|can't|can not|never)\s+(eat|drink)\s+(.+)$",
    re.IGNORECASE,
)
_SPEAK = re.compile(r"^(?:can\s+)?(?:speak|speaks)\s+(.+)$", re.IGNORECASE)
_DRIVE = re.compile(r"^(?:drive|drives|ride|rides)\s+(?:a|an)\s+(" + _NAME_WORD + r".*)$")
_THINKING = re.compile(
    r"^(?:am|is|have been|has been)\s+(?:really\s+|seriously\s+|also\s+)?"
    r"(?:thinking (?:about|of)|considering)\s+([a-z]+ing\s+.+)$",
    re.IGNORECASE,
)
_NO_LONGER_STATE = re.compile(
    r"^(?:am|is)\s+no longer\s+(an?\s+)?(.+)$|^(?:am|is)\s+not\s+(an?\s+)?(.+?)\s+any\s*more$",
    re.IGNORECASE,
)
# "I moved from Boston to Chicago": the old and the new residence at once.
_TRYING = re.compile(
    r"^(?:am|is|have been|has been)\s+(?:also\s+|really\s+|now\s+|currently\s+)?trying\s+"
    r"(out\s+)?(?!to\b|my\b|hard\b|not\b)(.+)$",
    re.IGNORECASE,
)
_ENJOYING = re.compile(
    r"^(?:am|is|have been|has been)\s+(?:really\s+|also\s+|totally\s+|so\s+)?enjoying\s+(.+)$",
    re.IGNORECASE,
)
# "I do yoga", "she does physical therapy exercises every day"; not "I do think", "I do it".
_DO = re.compile(
    r"^(?:also\s+|usually\s+|often\s+|still\s+|regularly\s+)?(?:do|does)\s+(?!not\b|n't\b|"
    r"think\b|love\b|like\b|know\b|hope\b|agree\b|believe\b|want\b|feel\b|miss\b|need\b|"
    r"have\b|get\b|see\b|it\b|that\b|this\b|so\b|too\b|what\b|my best\b|the same\b|"
    r"wish\b|enjoy\b|appreciate\b|remember\b|recommend\b)(.+)$",
    re.IGNORECASE,
)
# "Iron Man is my top pick", "contemporary is my favorite": the favourite named first.
_IS_MY_FAVOURITE = re.compile(
    r"(?:^|,\s*(?:but\s+|and\s+|so\s+)?)([^,]{2,40}?)\s+(?:is|are)\s+(?:definitely\s+|"
    r"probably\s+|still\s+)?my\s+(?:absolute\s+|all-time\s+|personal\s+)?(?:favou?rite|fave"
    r"|top pick|top choice)(?:\s+([a-z][a-z\s]{1,20}))?$",
    re.IGNORECASE,
)
_MY_THING_IS = re.compile(
    r"^(.{2,50}?)(?:'s|\s+is|\s+are|\s+has|\s+have)\s+(?:always\s+)?(?:been\s+)?(?:mostly\s+"
    r"|really\s+|totally\s+|definitely\s+)?(?:my|his|her)\s+(?:thing|jam|passion|haven"
    r"|happy place|escape|go-to|stress-buster|outlet)(?:\s+since\s+[\w\s]{1,20})?$",
    re.IGNORECASE,
)
_HOME = re.compile(
    r"\bmy\s+(?:home\s*country|home\s*town|homeland|native country)\s*(?:,|of|is|was)?\s*"
    r"(" + _NAME_WORD + r"(?:\s+" + _NAME_WORD + r")?)"
)
_MOVED_FROM = re.compile(
    r"^(?:have\s+|has\s+)?(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+from\s+"
    r"(.+?)\s+to\s+(.+)$",
    re.IGNORECASE,
)
_PREFERENCE_KEYS = {
    "like": "likes",
    "love": "loves",
    "enjoy": "enjoys",
    "adore": "loves",
    "prefer": "prefers",
    "hate": "dislikes",
    "dislike": "dislikes",
    "can't stand": "dislikes",
    "cannot stand": "dislikes",
    "can not stand": "dislikes",
    "don't like": "dislikes",
    "do not like": "dislikes",
    "doesn't like": "dislikes",
    "does not like": "dislikes",
}
_NUMBER = re.compile(
    r"^(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|some|several|a few|"
    r"a couple of|many)\s+",
    re.IGNORECASE,
)


def _restore(value: str) -> str:
    return value.replace(_DOT, ".")


# Words an object cut short must not end on ("a community event to raise money for a").
_DANGLING = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "for",
        "to",
        "in",
        "on",
        "at",
        "with",
        "by",
        "from",
        "as",
        "my",
        "your",
        "his",
        "her",
        "our",
        "their",
        "its",
        "and",
        "or",
        "but",
        "while",
        "when",
        "if",
        "that",
        "which",
        "who",
        "than",
        "so",
    ]
) | {""}  # a word that was only punctuation


def _clean_object(value: str) -> str:
    value = _TRAILING.sub("", _restore(value).strip())
    words = value.split()[:_MAX_OBJECT_WORDS]
    while len(words) > 1 and _TRAILING.sub("", words[-1]).casefold() in _DANGLING:
        words.pop()
    return _TRAILING.sub("", " ".join(words))


def _head(value: str) -> str:
    """The object up to where the clause moves on (a comma, "and", a time phrase)."""
    match = _OBJECT_END.search(value)
    return _clean_object(value[: match.start()] if match else value)


_NOT_ITEMS = frozenset({"i", "it", "we", "he", "she", "they", "you", "that", "this", "which", "so"})


def _items(value: str) -> list[str]:
    """ "peanuts, shellfish and eggs": one value each, when every part is a short noun
    phrase; anything else is read as one object, as `_head` cuts it."""
    match = _LIST_END.search(value)
    parts = [
        _clean_object(p)
        for p in _LIST_SPLIT.split(value[: match.start()] if match else value)
        if p.strip()
    ]
    if len(parts) > 1 and all(
        0 < len(p.split()) <= 3 and p.split()[0].casefold() not in _NOT_ITEMS and not _vague(p)
        for p in parts
    ):
        return parts
    return [_head(value)]


def _capitalised(item: str) -> bool:
    return item[:1].isupper()


def _listed(
    facts: _Facts,
    subject: str,
    key: str,
    category: str,
    raw: str,
    keep: Callable[[str], bool] = lambda item: not _vague(item),
) -> bool:
    """One attribute per listed item ("allergic to peanuts, shellfish and eggs"), the items
    `keep` passes; False when it passes none, so "allergic to it" says nothing."""
    items = [item for item in _items(raw) if keep(item)]
    for item in items:
        facts.attr(subject, key, item, category)
    return bool(items)


def _third(verb: str) -> str:
    """A verb's third person ("teach" -> "teaches", "study" -> "studies"), for labels."""
    verb = verb.casefold()
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "o", "u"):
        return verb[:-1] + "ies"
    return verb + "s"


def _snake(value: str) -> str:
    return "_".join(re.findall(r"[a-z0-9]+", value.lower()))


def _label(sentence: str) -> str:
    words = _TRAILING.sub("", sentence).split()
    label = " ".join(words[:6])
    return label[:1].upper() + label[1:]


def _protect(text: str) -> str:
    """Quotes straightened, contractions spelt out, abbreviation dots kept from splitting."""
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    return ABBREVIATIONS.sub(lambda m: m.group(1) + _DOT, text)


# "I started a store - pretty cool, huh?" is a statement with a tag, not a question.
_TAG_QUESTION = re.compile(
    r"(?:,|\s[-\u2013\u2014])\s*(?:[\w' ]{0,20}?,\s*)?(?:right|huh|eh|yeah|you know|isn't it|"
    r"aren't they|don't you think)\s*\?+$",
    re.IGNORECASE,
)


def _sentences(text: str) -> list[str]:
    """The text's statements: a question ("Got any tips for marketing?") states nothing."""
    parts = (_TAG_QUESTION.sub(".", s.strip()) for s in _SENTENCE_SPLIT.split(_protect(text)))
    return [s for s in parts if s and not s.endswith("?")]


def _clauses(sentence: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_SPLIT.split(sentence) if c and c.strip()]


def _is_name(value: str) -> bool:
    """Capitalised words that can name someone: not a function word, not a gerund."""
    words = value.split()
    return (
        bool(words)
        and re.sub(r"'\w+$", "", words[0]) not in NOT_NAMES
        and words[0].casefold() not in {"i", "my"}
        and "I" not in words  # "Since I left": a conjunction and the speaker
        and not any(w.endswith("ing") for w in words)
    )


@dataclass
class _Facts:
    """What one text states. `user` is the speaker; other subjects are named entities."""

    entities: dict[str, tuple[str, str]] = field(default_factory=dict)
    attributes: list[tuple[str, str, str, str]] = field(default_factory=list)
    relations: list[tuple[str, str, str, str]] = field(default_factory=list)
    actions: list[tuple[str, str, str, str]] = field(default_factory=list)
    instructions: list[dict[str, str]] = field(default_factory=list)
    corrections: list[tuple[str, str, str | None, str]] = field(default_factory=list)
    last_person: str | None = None

    def entity(self, name: str, entity_type: str) -> None:
        """A named thing the text mentions (the speaker is `user`, never listed here)."""
        if name and name != USER and name.casefold() not in self.entities:
            self.entities[name.casefold()] = (name, entity_type)

    def person(self, name: str) -> None:
        self.entity(name, "person")
        self.last_person = name

    def attr(self, subject: str, key: str, value: str, category: str) -> None:
        if value:
            self.attributes.append((subject, key, value, category))

    def rel(self, subject: str, label: str, obj: str, obj_type: str, category: str) -> None:
        if obj:
            self.entity(obj, obj_type)
            self.relations.append((subject, label, obj, category))

    def act(self, subject: str, label: str, obj: str, category: str = "context") -> None:
        if obj and label:
            self.actions.append((subject, label, obj, category))


_PLACE = re.compile(
    rf"^(?:the\s+)?({_NAME_WORD}(?:\s+(?:of\s+|de\s+)?{_NAME_WORD})*"
    rf"(?:,\s*{_NAME_WORD}(?:\s+{_NAME_WORD})*)?)"
)


def _place(facts: _Facts, subject: str, label: str, raw: str) -> None:
    """A place is a run of capitalised words, a region after a comma ("Porto, Portugal")."""
    match = _PLACE.match(raw.strip())
    if match and match.group(1).split()[0] not in NOT_NAMES:
        facts.rel(subject, label, _clean_object(match.group(1)), "place", "identity")


_ORG_NAME = re.compile(r"^([A-Z][\w'.&-]*(?:\s+(?:of\s+|de\s+|&\s+|and\s+)?[A-Z][\w'.&-]*)*)")


def _organisation(facts: _Facts, subject: str, raw: str) -> None:
    """`St. Mary Hospital in Boston as a nurse`: employer, its city, a role after `as`."""
    head = _head(raw)
    role = re.search(r"\s+as\s+(?:(?:a|an|the)\s+)?(.+)$", head, re.I)
    if role:
        facts.attr(subject, "role", _clean_object(role.group(1)), "identity")
        head = head[: role.start()]
    city = _OF_PLACE.match(head)
    org = _clean_object(city.group(1) if city else head)
    if org[:1].isupper() and (named := _ORG_NAME.match(org)):
        org = _clean_object(named.group(1))  # "Acme on a project": the name, not what follows
    if org:
        facts.rel(subject, "works_at", org, "organisation", "identity")
        if city:
            facts.rel(org, "based_in", _clean_object(city.group(2)), "place", "identity")


_DURATION = re.compile(
    r"\s+(?:for\s+(?:about\s+|over\s+|almost\s+|nearly\s+|the\s+(?:past|last)\s+)?(?:\d+|a few"
    r"|a couple of|several|many|one|two|three|four|five|six|seven|eight|nine|ten|a|some)\s+"
    r"(?:years?|months?|weeks?|days?|decades?)|for (?:a|some) (?:long\s+)?(?:while|time)"
    r"|since)\b.*$",
    re.IGNORECASE,
)


def _role(facts: _Facts, subject: str, raw: str) -> bool:
    """`nurse at St. Mary Hospital in Boston`: a role, then an employer where one is named
    ("for ten years" says how long, not for whom)."""
    head = _DURATION.sub("", raw)
    at = re.search(r"\s+(?:at|for|with)\s+", head, re.I)
    role = _head(head[: at.start()] if at else head)
    if not role or role.split()[0].casefold() in NOT_ROLES:
        return False
    facts.attr(subject, "role", role, "identity")
    if at:
        _organisation(facts, subject, head[at.end() :])
    return True


def _named(facts: _Facts, subject: str, name: str) -> None:
    """A person the clause names as its object. "He"/"she" in a later clause means them only
    when the speaker was the subject ("I'm married to Tom. He..."); after "Tom is married to
    Lisa", it still means Tom."""
    if subject == USER:
        facts.person(name)
    else:
        facts.entity(name, "person")


def _possession(facts: _Facts, subject: str, raw: str) -> bool:
    obj = _head(raw)
    counted = _NUMBER.match(obj)
    noun = obj[counted.end() :] if counted else obj
    words = noun.casefold().split()
    if not words:
        return False
    head = words[0].rstrip("s") if words[0] not in ("guinea",) else "guinea pig"
    named = re.search(r"\b(?:named|called)\s+(" + _NAME_WORD + ")", _restore(raw))
    value = obj + (f" named {named.group(1)}" if named and named.group(1) not in obj else "")
    names = _names_after(_restore(raw))
    kin = words[0] if words[0] in RELATIVES else head
    if kin in RELATIVES and kin not in _CHILDREN:
        kind = "married_to" if kin in SPOUSES else _snake(kin)
        for name in names:
            _named(facts, subject, name)
            facts.rel(subject, kind, name, "person", "identity")
        if not names and kin in FAMILY:
            for item in _items(raw):  # "a brother and a sister": one record each
                facts.act(subject, "has", item, "identity")
        return bool(names) or kin in FAMILY
    if any(w in CONDITIONS for w in words[:4]) and not counted:
        facts.act(subject, "has_condition", noun, "identity")
    elif head in PETS:
        facts.attr(subject, "pets", value, "identity")
    elif head in ("kid", "child", "children", "son", "daughter", "boy", "girl", "grandchild"):
        facts.attr(subject, "children", value, "identity")
        for name in names:
            facts.entity(name, "person")
            facts.rel(subject, "child", name, "person", "identity")
    elif head in CONDITIONS:
        facts.act(subject, "has_condition", noun, "identity")
    elif counted and head in POSSESSIONS:
        facts.act(subject, "owns", obj, "knowledge")
    else:
        return False
    return True


_CHILDREN = frozenset({"kid", "kids", "child", "children", "son", "daughter"})
_NAMES_AFTER = re.compile(
    r"(?:,\s*|\s+(?:named|called)\s+)((?-i:"
    + _NAME_WORD
    + r")(?:\s*,\s*(?-i:"
    + _NAME_WORD
    + r"))*(?:,?\s+and\s+(?-i:"
    + _NAME_WORD
    + r"))?)\s*$",
    re.IGNORECASE,
)


def _names_after(raw: str) -> list[str]:
    """ "two kids, Sam and Lily" / "a brother named Tim": the names the phrase ends with."""
    match = _NAMES_AFTER.search(_TRAILING.sub("", raw))
    if not match:
        return []
    names = [n for n in re.split(r"\s*,\s*|\s+and\s+", match.group(1)) if n]
    return [n for n in names if _is_name(n)]


def _preference(facts: _Facts, subject: str, match: re.Match[str]) -> None:
    verb = " ".join(match.group(1).lower().split())
    key = _PREFERENCE_KEYS.get(verb) or _PREFERENCE_KEYS.get(verb.removesuffix("s"), "likes")
    if verb.endswith("es") and verb.removesuffix("es") in ("prefer", "hat", "ador"):
        key = _PREFERENCE_KEYS.get(verb[:-1], key)
    for value in [_head(match.group(2))] if key == "prefers" else _items(match.group(2)):
        if not _vague(value) and value.casefold() not in ("to", "the"):
            facts.attr(subject, key, value, "knowledge")


_PARTICLE = re.compile(
    r"^(back from|back to|back|to|on|for|with|into|up|out|in|at|off|from)\s+(.+)$", re.I
)
# "I had ...": objects that report a mood, not something that happened.
NOT_HAD: tuple[str, ...] = (
    "a blast",
    "fun",
    "a great",
    "a good time",
    "a lot of",
    "no ",
    "a feeling",
    "to ",
)
NOT_HAD += ("a ton of", "a bit of", "a wild", "such a")


_DEICTIC = frozenset({"this", "that", "these", "those", "it", "them", "something", "one"})
_EMPTY = frozenset(
    {"it", "out", "through", "up", "so", "you", "myself", "a", "lot", "there", "here", "again"}
    | {"everywhere", "anywhere", "somewhere", "together", "too", "anymore", "around", "well"}
    | {"few", "bit", "ton", "bunch", "last"}
)


# An object that opens with these is a judgement or a verb, not a thing someone did or has.
_NOT_OBJECT_START = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "so",
        "really",
        "you",
        "your",
        "like",
        "such",
        "super",
        "pretty",
        "very",
        "kinda",
        "totally",
        "awesome",
        "great",
        "amazing",
        "good",
        "nice",
        "cool",
        "fine",
        "okay",
        "ok",
        "incredible",
        "important",
    ]
)


_QUESTION_WORDS = frozenset({"how", "what", "why", "whether"})


def _vague(obj: str) -> bool:
    """An object that means nothing without the conversation: "this pic", "them myself",
    "it", "through", "something", "if"; one that starts with a verb ("is so expressive") or
    ends on a pointing word ("dreaming of this")."""
    words = [w.strip(".,!?\"'").casefold() for w in obj.split()]
    if not words or words[0] in _NOT_OBJECT_START or "you" in words or "your" in words:
        return True
    if words[0] in _QUESTION_WORDS and words[1:2] != ["to"]:
        return True  # "saw how counseling", "loves how it shows", but "learning how to dance"
    if words[-1] in _DEICTIC or " like this" in f" {obj} ":
        return True  # "dreaming of this", "a place like this"
    content = [w for w in words if w not in _EMPTY and w not in _DEICTIC and w not in _DANGLING]
    if not content:
        return True
    return words[0] in _DEICTIC and len(content) < 2


# "I got to ..." with these is an obligation or a figure of speech, not a chance taken.
_NOT_GOT_TO = frozenset(
    {"be", "go", "say", "admit", "tell", "know", "do", "have", "get", "let", "the"}
)


def _event(facts: _Facts, subject: str, verb: str, raw: str) -> bool:
    """A past event: `went to a support group`, `adopted a puppy`, `painted a sunrise`."""
    verb = verb.casefold()
    if verb in NOT_EVENT_VERBS or verb.endswith("eed"):
        return False
    if verb == "got" and (to := re.match(r"^to\s+([a-z]+)\s+(.+)$", raw, re.IGNORECASE)):
        # "I got to volunteer at a career fair": the chance taken is the event
        obj = f"{to.group(1)} {_head(to.group(2))}"
        if to.group(1).casefold() in _NOT_GOT_TO or len(obj.split()) < 3 or _vague(obj):
            return False
        facts.act(subject, "got_to", obj, "context")
        return True
    if verb in ("got", "tried") and raw.casefold().startswith("to "):
        return False  # "I've got to share", "I tried to stay calm": no event of their own
    if verb.endswith("ing") and (both := re.match(r"^and\s+([a-z]{3,}ing)\s+(.+)$", raw, re.I)):
        # "revising and perfecting the recipe": both verbs are the label
        verb, raw = f"{verb}_and_{both.group(1).casefold()}", both.group(2)
    particle = _PARTICLE.match(raw)
    label, rest = (
        (f"{verb}_{_snake(particle.group(1))}", particle.group(2)) if particle else (verb, raw)
    )
    obj = _head(rest)
    if _vague(obj) or (verb == "had" and obj.casefold().startswith(NOT_HAD)):
        return False
    facts.act(subject, label, obj, "context")
    return True


def _predicate(facts: _Facts, subject: str, rest: str) -> bool:
    """Apply the first predicate pattern that reads `rest` (what `subject` is said to do)."""
    rest = _ADVERB_BEEN.sub(r"\1 been", _TRAILING.sub("", rest.strip()))
    first = subject == USER
    if first and (m := _IM_NAME.match(rest)) and _is_name(m.group(1)):
        _set_name(facts, _restore(m.group(1)))
        if m.group(2):
            _role(facts, subject, re.sub(r"^(?:a|an|the)\s+", "", m.group(2), flags=re.I))
        return True
    life = _life(facts, subject, rest)
    if life is not None:
        return life
    if m := _NO_LONGER.match(rest):
        key = "works_at" if m.group(1).lower() == "work" else "lives_in"
        facts.corrections.append((subject, key, _head(m.group(2)), "none"))
    elif m := _MOVED.match(rest):
        _place(facts, subject, "lives_in", m.group(1))
    elif m := _WORK_AS.match(rest):
        return _role(facts, subject, m.group(1))
    elif m := _WORK_AT.match(rest):
        if m.group(1).casefold() == "with" and not m.group(2)[:1].isupper():
            return _event(facts, subject, "works", m.group(0).split(None, 1)[1])
        _organisation(facts, subject, m.group(2))
    elif m := _LIVE.match(rest):
        _place(facts, subject, "lives_in", m.group(1))
    elif m := _FROM.match(rest):
        _place(facts, subject, "from", m.group(1) or m.group(2))
    elif m := _ALLERGIC.match(rest):
        return _listed(facts, subject, "allergies", "identity", m.group(1) or m.group(2))
    elif m := _INTOLERANT.match(rest):
        facts.attr(subject, "allergies", f"{m.group(1).lower()} (intolerant)", "identity")
    elif m := _DIAGNOSED.match(rest):
        facts.act(subject, "diagnosed_with", _head(m.group(1)), "identity")
    elif m := _DIET.match(rest):
        facts.attr(subject, "diet", m.group(1).lower(), "identity")
    elif m := _FAN.match(rest):
        return _listed(facts, subject, "likes", "knowledge", m.group(1))
    elif m := _LOOKING_FORWARD.match(rest):
        ahead = _head(m.group(1))
        if _vague(ahead):  # "looking forward to meeting you": about the listener
            return False
        facts.act(subject, "looking_forward_to", ahead, "context")
    elif m := _GOING_TO.match(rest):
        return _event(facts, subject, "going", "to " + m.group(1))
    elif m := _GETTING.match(rest):
        when = _head(m.group(2)) if m.group(2) else ""
        facts.act(subject, "getting", f"{m.group(1)} {when}".strip(), "context")
    elif m := _PLAN.match(rest):
        said = bool(re.match(r"^\S+\s+(?:planning|plans?|intends?)\b|^(?:plans?|intends?)\b", rest))
        obj = m.group(1) or m.group(2) or m.group(3) or m.group(4)
        if re.match(r"^\S+\s+going\s+[a-z]+ing\b", rest):
            return _event(facts, subject, "going", obj)  # "we are going camping"
        return _plan(facts, subject, obj, said=said)
    elif m := _WANT.match(rest):
        goal = _head(m.group(1))
        if _vague(goal):
            return False
        facts.attr(subject, "goals", goal, "knowledge")
    elif (m := _HAVE.match(rest)) and _possession(facts, subject, m.group(1)):
        return True
    elif m := _ROLE.match(rest):
        return _role(facts, subject, m.group(1))
    elif m := _LIKE.match(rest):
        _preference(facts, subject, m)
    elif (m := _ACTIVITY.match(rest)) and (first or rest.split()[0].casefold().endswith("s")):
        return _event(facts, subject, _third(m.group(1)), m.group(2))
    elif ((m := _EVENT.match(rest)) and not _HAVE_GOT.match(rest)) or (
        (m := _ONGOING.match(rest))
        and (m.group(1).casefold() not in NOT_ONGOING or _PHRASAL.match(rest, m.start(1)))
    ):
        verb, obj = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return _event(facts, subject, PARTICIPLES.get(verb.casefold(), verb), obj)
    else:
        return False
    return True


def _life(facts: _Facts, subject: str, rest: str) -> bool | None:
    """Age, marital and work status, birthplace, jobs taken and left, study, interests,
    what someone will not eat, languages, cars, what they used to do and what no longer
    holds. None: no pattern here reads `rest` (the caller tries its own)."""
    if m := _AGE.match(rest):
        facts.attr(subject, "age", m.group(1), "identity")
    elif m := _NO_LONGER_STATE.match(rest):
        return _no_longer(facts, subject, bool(m.group(1) or m.group(3)), m.group(2) or m.group(4))
    elif (m := _STATUS.match(rest)) and (
        m.group(3) or not m.group(4).strip() or _OBJECT_END.match(m.group(4))
    ):
        word = m.group(2).casefold()
        if m.group(3) and word in ("married", "engaged") and _is_name(m.group(3)):
            partner = _restore(_head(m.group(3)))
            _named(facts, subject, partner)
            facts.rel(
                subject,
                "married_to" if word == "married" else "engaged_to",
                partner,
                "person",
                "identity",
            )
        facts.attr(subject, _STATUS_KEYS.get(word, "marital_status"), word, "identity")
        if m.group(1).casefold().endswith("got"):
            facts.act(subject, "got", word, "context")
    elif m := _BORN.match(rest):
        _place(facts, subject, "born_in", m.group(1))
    elif m := _LIVING.match(rest):
        _place(facts, subject, "lives_in", m.group(1) or m.group(2))
    elif (m := _DIED.match(rest)) and subject != USER:  # "I died laughing": no one's death
        facts.attr(subject, "life_status", m.group(1).casefold(), "identity")
    elif (m := _WAS_IN.match(rest)) and (place := _place_name(m.group(2))):
        facts.act(subject, f"was_{m.group(1).casefold()}", place, "context")
    elif m := _LIVED_FOR.match(rest):
        _place(facts, subject, "lives_in", m.group(1))
    elif m := _BUSY.match(rest):
        value = _head(m.group(1))
        if _vague(value):
            return None
        facts.act(subject, "busy_with", value, "context")
    elif m := _LOVE_FOR.match(rest):
        key = "loves" if m.group(1).casefold() in ("love", "passion") else "likes"
        return _listed(facts, subject, key, "knowledge", m.group(2))
    elif m := _LOOKING.match(rest):
        return _event(facts, subject, "looking", m.group(1))
    elif m := _MOVED_FROM.match(rest):
        old, new = _place_name(m.group(1)), _place_name(m.group(2))
        if not (old and new):
            return None
        facts.entity(new, "place")
        facts.corrections.append((subject, "lives_in", old, new))
    elif m := _WORKING_AT.match(rest):
        if not re.match(r"(?:the\s+|a\s+|an\s+)?[A-Z]", m.group(1)):
            return None
        _organisation(facts, subject, m.group(1))
    elif m := _NEW_JOB.match(rest):
        _job(facts, subject, m.group(2))
        _event(facts, subject, m.group(1), rest[m.end(1) :].strip())
    elif m := _LEFT_JOB.match(rest):
        org = _head(m.group(1) or m.group(2) or "") or None
        facts.corrections.append((subject, "works_at", org, "none"))
        said = re.search(
            r"\b(?:my|his|her|their|the)\s+(?:old\s+)?job\b|laid off|fired|let go", rest
        )
        # "left job at Globex", "left my job", "got laid off": as a record reads them
        what = said.group(0) if said else "job"
        label = "left_job_at" if org else "left" if what.endswith("job") else "got"
        facts.act(subject, label, org or what, "identity")
    elif m := _STUDENT.match(rest):
        facts.attr(subject, "role", _clean_object(m.group(1)), "identity")
        if m.group(2):
            _school(facts, subject, m.group(2))
    elif m := _STUDY.match(rest):
        raw = m.group(1) or m.group(2)
        at = re.search(r"\s+(?:at|in)\s+(?=(?:the\s+)?[A-Z])", raw)
        field_of = _head(raw[: at.start()] if at else raw)
        if _vague(field_of) or field_of.casefold().startswith(("for ", "hard")):
            return None
        facts.attr(subject, "studies", field_of, "identity")
        if at:
            _school(facts, subject, raw[at.end() :])
    elif m := _INTO.match(rest):
        return _listed(facts, subject, "interests", "knowledge", m.group(1))
    elif m := _NOT_FAN.match(rest):
        return _listed(facts, subject, "dislikes", "knowledge", m.group(1) or m.group(2))
    elif m := _AVOID.match(rest):
        verb = m.group(1).casefold()
        for item in _items(m.group(2)):
            facts.act(subject, f"does_not_{verb}", item, "identity")
    elif m := _SPEAK.match(rest):
        return _listed(facts, subject, "languages", "identity", m.group(1), _capitalised)
    elif m := _DRIVE.match(rest):
        facts.act(subject, "owns", "a " + _head(m.group(1)), "knowledge")
    elif m := _TRYING.match(rest):
        return _event(facts, subject, "trying_out" if m.group(1) else "trying", m.group(2))
    elif m := _ENJOYING.match(rest):
        value = _head(m.group(1))
        if _vague(value):
            return False
        facts.attr(subject, "enjoys", value, "knowledge")
    elif m := _DO.match(rest):
        return _event(facts, subject, "does", m.group(1))
    elif m := _THINKING.match(rest):
        return _plan(facts, subject, m.group(1), "considering")
    elif m := _USED_TO.match(rest):
        return _used_to(facts, subject, m.group(1))
    else:
        return None
    return True


def _place_name(raw: str) -> str | None:
    match = _PLACE.match(raw.strip())
    if match and match.group(1).split()[0] not in NOT_NAMES:
        return _clean_object(match.group(1))
    return None


def _school(facts: _Facts, subject: str, raw: str) -> None:
    school = _place_name(raw)
    if school:
        facts.rel(subject, "studies_at", school, "organisation", "identity")


def _job(facts: _Facts, subject: str, raw: str) -> None:
    """What follows "a new job": "as a barista at Blue Bottle", "at Amazon as an analyst"."""
    raw = raw.strip()
    if role := re.match(r"^as\s+(?:(?:a|an|the)\s+)?(.+)$", raw, re.IGNORECASE):
        _role(facts, subject, role.group(1))
    elif at := re.match(r"^(?:at|with|for)\s+(?=(?:the\s+)?[A-Z])(.+)$", raw):
        _organisation(facts, subject, at.group(1))


def _used_to(facts: _Facts, subject: str, raw: str) -> bool:
    """ "I used to live in London": a past residence or job, kept as an event, never as the
    current slot."""
    if m := re.match(r"^(live|work)\s+(?:in|at|for)\s+(.+)$", raw, re.IGNORECASE):
        place = _place_name(m.group(2))
        if not place:
            return False
        label = "lived_in" if m.group(1).casefold() == "live" else "worked_at"
        facts.act(subject, label, place, "identity")
        return True
    obj = _head(raw)
    if _vague(obj) or len(obj.split()) < 2 or obj.split()[0].casefold() in NOT_PLANS:
        return False
    facts.act(subject, "used_to", obj, "context")
    return True


_STATUS_WORDS = frozenset({"married", "single", "divorced", "engaged", "retired", "unemployed"})


def _no_longer(facts: _Facts, subject: str, article: bool, raw: str) -> bool:
    """ "I'm no longer vegetarian", "she is not married any more": the slot ends."""
    value = _head(raw)
    word = value.casefold()
    if word in DIETS:
        facts.corrections.append((subject, "diet", word, "none"))
    elif word in _STATUS_WORDS:
        facts.corrections.append((subject, _STATUS_KEYS.get(word, "marital_status"), word, "none"))
    elif article and 0 < len(value.split()) <= 3 and word.split()[0] not in NOT_ROLES:
        facts.corrections.append((subject, "role", value, "none"))
    else:
        return False
    return True


_PLAN_ADVERB = re.compile(r"^(?:just|also|really|probably|still|soon|totally)\s+", re.I)
_PLAN_VERBS = frozenset({"take", "have", "get", "make", "give", "show", "send", "do"})


def _plan(
    facts: _Facts, subject: str, raw: str, label: str = "plans_to", said: bool = False
) -> bool:
    """`said`: the clause says "plan" ("we're planning to take a trip"), so a verb that
    starts a promise or a mood after "I will" ("take", "have") starts a plan here."""
    obj = _PLAN_ADVERB.sub("", _head(raw))
    words = obj.casefold().split()
    unplanned = bool(words) and words[0] in NOT_PLANS and not (said and words[0] in _PLAN_VERBS)
    if not words or unplanned or _vague(obj) or " you" in f" {obj.casefold()} ":
        return False
    facts.act(subject, label, obj, "context")
    return True


def _set_name(facts: _Facts, name: str) -> None:
    if name:
        facts.attr(USER, "name", name, "identity")


# What an unnamed relative's one-word value still says ("my mom is a doctor", "loves cooking").
_RELATIVE_KEYS = frozenset(
    {"lives_in", "works_at", "role", "from", "age", "loves", "likes", "dislikes", "life_status"}
)


def _relative(facts: _Facts, match: re.Match[str]) -> bool:
    """`my sister Ana lives in Madrid`: Ana is a person, the speaker's sister, who lives..."""
    kind = match.group(1).casefold()
    name = match.group(2)
    rest = match.group(3)
    if name and not _is_name(name):
        rest, name = f"{name} {rest}".strip(), None
    if name:
        name = _restore(name)
        label = "married_to" if kind in SPOUSES else _snake(kind)
        facts.person(name)
        facts.rel(USER, label, name, "person", "identity")
        if rest:
            _predicate(facts, name, rest)
        return True
    if not rest:
        return False
    if _DIED.match(rest):
        facts.act(USER, "lost", f"my {match.group(1).casefold()}", "identity")
        return True
    before = len(facts.actions) + len(facts.attributes) + len(facts.relations)
    scratch = _Facts()
    if _predicate(scratch, "x", rest):
        said = [(k, v, c) for _, k, v, c in scratch.attributes + scratch.relations]
        said += [(k, v, c) for _, k, v, c in scratch.actions]
        for key, value, category in said:
            if len(value.split()) >= 2 or key in _RELATIVE_KEYS:
                facts.act(USER, f"{_snake(kind)}_{key}", value, category)
    return len(facts.actions) + len(facts.attributes) + len(facts.relations) > before


def _statement(facts: _Facts, clause: str, carried: str | None) -> str | None:
    """Read one clause; the subject it was about (for the next clause to carry), if any."""
    if (m := _THIS_IS.match(clause)) and _is_name(m.group(1)):
        _set_name(facts, _restore(m.group(1)))
        if m.group(2):
            _role(facts, USER, re.sub(r"^(?:a|an|the)\s+", "", m.group(2), flags=re.I))
        return USER
    if m := _MY_NAME.match(clause):
        _set_name(facts, _clean_object(m.group(1)))
        return USER
    if (m := _IS_MY_FAVOURITE.search(_TRAILING.sub("", clause))) and not _vague(m.group(1)):
        if m.start() > 0:
            _statement(facts, clause[: m.start()], carried)
        kind = f"favourite_{_snake(m.group(2))}" if m.group(2) else "favourite"
        facts.attr(USER, kind, _clean_object(m.group(1)), "knowledge")
        return USER
    if (m := _MY_THING_IS.match(_TRAILING.sub("", clause))) and not _vague(m.group(1)):
        facts.attr(USER, "likes", _clean_object(m.group(1)), "knowledge")
        return USER
    if m := _FAVOURITE.match(clause):
        facts.attr(USER, f"favourite_{_snake(m.group(1))}", _head(m.group(2)), "knowledge")
        return USER
    if m := _MY_RELATIVE.match(clause):
        _relative(facts, m)
        return _restore(m.group(2)) if m.group(2) and _is_name(m.group(2)) else None
    if m := _MY_THING.match(clause):
        value = _head(m.group(2))
        if not _vague(value):
            facts.attr(USER, _snake(m.group(1)), value, "knowledge")
        return USER
    if m := _SUBJECT_I.match(clause):
        _predicate(facts, USER, m.group(1))
        return USER
    if (m := _SUBJECT_PRONOUN.match(clause)) and facts.last_person:
        _predicate(facts, facts.last_person, m.group(2))
        return facts.last_person
    if (
        (m := _SUBJECT_NAME.match(clause))
        and _is_name(m.group(1))
        and not _BARE_VERB.match(m.group(2))
    ):
        name = _restore(m.group(1))
        scratch = _Facts(last_person=name)
        if _predicate(scratch, name, m.group(2)):
            facts.person(name)
            _merge(facts, scratch)
            return name
        return None
    if carried and not _OTHER_SUBJECT.match(clause):
        _predicate(facts, carried, clause)
        return carried
    return None


# A clause with a subject of its own carries no earlier one ("it was awesome").
_OTHER_SUBJECT = re.compile(
    r"^(?:it|this|that|these|those|they|there|everything|everyone|nothing|so|such|what|you|"
    r"the|a|an|his|her|their|our|its)\b",
    re.IGNORECASE,
)


# "Baked cookies are my favorite": a clause that names a favourite has its own subject.
_NAMES_A_LIKING = re.compile(
    r"\s(?:is|are|'s)\s+(?:\w+\s+)?my\s+(?:\w+\s+)?(?:favou?rite|fave|top pick|top choice|thing"
    r"|jam|passion)\b",
    re.IGNORECASE,
)


def _merge(into: _Facts, part: _Facts) -> None:
    for key, value in part.entities.items():
        into.entities.setdefault(key, value)
    into.attributes += part.attributes
    into.relations += part.relations
    into.actions += part.actions
    into.corrections += part.corrections


def _extract(text: str) -> dict[str, Any]:
    facts = _Facts()
    for sentence in _sentences(_PREFIX.sub("", text, count=1)):
        if home := _HOME.search(sentence):
            facts.rel(USER, "from", _restore(home.group(1)), "place", "identity")
        carried: str | None = None
        correcting = False  # "Actually," alone: the clause after it is the correction
        for index, raw in enumerate(_clauses(sentence)):
            clause = _LEADING_FILLER.sub("", raw).strip()
            if news := _PREAMBLE.search(clause):
                clause = clause[news.end() :]
            clause = _SUBORDINATE.sub("", _LEADING_TIME.sub("", clause).strip())
            if not clause:
                continue
            if (
                index == 0
                and _SUBJECTLESS.match(clause)
                and not _CORRECTION.match(clause)
                and len(clause.split()) >= 3
                and not _NAMES_A_LIKING.search(_TRAILING.sub("", clause))
            ):
                clause = f"I {clause}"
            if correcting:
                clause, correcting = f"actually {clause}", False
            call_me = _CALL_ME.match(clause)
            if call_me:
                facts.attr(USER, "preferred_name", _restore(call_me.group(1)), "identity")
                facts.instructions.append(
                    {"label": "Preferred name", "description": _restore(_TRAILING.sub("", clause))}
                )
                continue
            if _INSTRUCTION.match(clause):
                facts.instructions.append(
                    {
                        "label": _label(_restore(clause)),
                        "description": _restore(_TRAILING.sub("", clause)),
                    }
                )
                continue
            corrected = _CORRECTION.match(clause)
            if corrected and corrected.end() == len(clause):
                correcting = True
            elif corrected:
                carried = _correction(facts, clause[corrected.end() :], carried)
                continue
            carried = _statement(facts, clause, carried)
    return _as_contract(facts)


def _correction(facts: _Facts, clause: str, carried: str | None) -> str | None:
    """`Actually, ...`: what the clause states replaces the slot's value, whatever it was."""
    before = (len(facts.attributes), len(facts.relations))
    subject = _statement(facts, clause, carried)
    for entity, key, value, _ in facts.attributes[before[0] :]:
        facts.corrections.append((entity, key, None, value))
    # "I live in Portland, not Seattle": the value named after "not" is the one replaced.
    instead = re.search(r",?\s+(?:and\s+)?not\s+(?:in\s+|at\s+|for\s+)?" + _NAME + r"\W*$", clause)
    for entity, label, obj, _ in facts.relations[before[1] :]:
        old = (
            _restore(instead.group(1))
            if instead and len(facts.relations) - before[1] == 1
            else None
        )
        facts.corrections.append((entity, label, old, obj))
    del facts.attributes[before[0] :]
    del facts.relations[before[1] :]
    return subject


def _fold_endings(facts: _Facts) -> None:
    """ "I moved to Chicago, I no longer live in Boston": one correction, Boston to Chicago.

    Within one write the last statement about a single-valued slot is the one it makes
    (domain/reconcile_netting.py), so an ending of Boston stated beside the new value would
    end the slot altogether; folded into one correction, it replaces Boston with Chicago.
    """
    for ending in [c for c in facts.corrections if c[3] == "none" and c[2]]:
        entity, key, old, _ = ending
        new = next(
            (c for c in facts.corrections if c[:2] == (entity, key) and c[3] != "none"), None
        )
        stated = next((r for r in facts.relations if r[:2] == (entity, key)), None)
        if new is not None:
            facts.corrections.remove(new)
            value = new[3]
        elif stated is not None:
            facts.relations.remove(stated)
            value = stated[2]
        else:
            continue
        facts.corrections[facts.corrections.index(ending)] = (entity, key, old, value)


def _as_contract(facts: _Facts) -> dict[str, Any]:
    _fold_endings(facts)
    about_user = any(
        row[0] == USER
        for rows in (facts.attributes, facts.relations, facts.actions, facts.corrections)
        for row in rows
    )
    entities: list[dict[str, str]] = []
    if about_user:
        entities.append({"name": USER, "entityType": "person", "memoryCategory": "identity"})
    for name, entity_type in facts.entities.values():
        category = "identity" if entity_type in ("person", "place", "organisation") else "context"
        entities.append({"name": name, "entityType": entity_type, "memoryCategory": category})
    return {
        "entities": entities,
        "attributes": [
            {"entity": e, "key": k, "value": v, "memoryCategory": c}
            for e, k, v, c in facts.attributes
        ],
        "relations": [
            {"subject": s, "label": label, "object": obj, "memoryCategory": c}
            for s, label, obj, c in facts.relations
        ],
        "actions": [
            {"actor": a, "label": label, "object": obj, "memoryCategory": c}
            for a, label, obj, c in facts.actions
        ],
        "instructions": facts.instructions,
        "uncertainties": [],
        "corrections": [
            {"entity": e, "key": k, "oldValue": old, "newValue": new}
            for e, k, old, new in facts.corrections
        ],
    }


class RuleExtractor:
    """The extraction stage's provider when no model is configured (see module docstring)."""

    @property
    def description(self) -> str:
        return "rules: built-in pattern extractor (no model)"

    async def complete_json(
        self,
        stage: str,
        system: str,
        user: str,
        schema: SchemaLike,
        max_tokens: int,
        *,
        usage_sink: UsageSink | None = None,
    ) -> JsonResult:
        """Read the framed window back out of the user message; the system prompt is unused."""
        if stage != "extraction":
            raise ValueError(f"the rule extractor serves only the extraction stage, not {stage!r}")
        data = _extract(unframe(user))
        return JsonResult(
            data=validate_output(ExtractionOutput, data), usage=Usage(), model=MODEL_NAME
        )


def extract_facts(text: str) -> dict[str, Any]:
    """The rule extractor's output for plain text, as the extraction contract's JSON."""
    return validate_output(ExtractionOutput, _extract(text))

"""Word lists the rule extractor reads clauses with (kept apart so the patterns stay short).

Every list is closed on purpose: a word missing here makes the rules miss a fact, a word
too many makes them store small talk, and the extraction benchmark
(benchmarks/bench_extraction.py) measures both.
"""

from __future__ import annotations

import re
from typing import Final


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Abbreviations whose full stop does not end a sentence ("St. Mary Hospital", "Dr. Okafor").
ABBREVIATIONS: Final = re.compile(r"\b(Dr|Mr|Mrs|Ms|Mx|Prof|St|Mt|Ave|Jr|Sr|Inc|Ltd|Co|vs)\.")

# Capitalised words that open a clause without being anyone's name.
NOT_NAMES: Final = _words(
    """
    Sorry Fine Not Sure Just Here Back Good Glad Happy Okay Ok So Really Very Still Also Going
    Trying Looking Done Ready Afraid English American British German French Spanish Italian
    The A An This That These Those It Its There Their They We You Your Our Who What When Where
    Why How Which Thanks Thank Yes No Yeah Wow Oh Hey Hi Hello Well But And Or If Then Now
    Today Tomorrow Yesterday Last Next Every Some Any All Both Each Maybe Perhaps Definitely
    Totally Absolutely Congrats Congratulations Great Awesome Cool Nice Amazing Lol Haha Omg
    Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May
    June July August September October November December Let Lets Me Us Him Her Them He She
    Mom Dad Mum Mother Father Sister Brother Grandma Grandpa Is Are Was Were Do Does Did Can
    Could Would Should Will Must Might Please Sounds Seems Life Family Being Having Getting
    Took Went Made Got Had Saw Love Like Enjoy Hope Plus Anyway Actually Honestly Seriously
    Speaking Talking Sometimes Often Always Never Usually Lately Recently Already
    Tons Lots Plenty Nothing Everything Something Everyone Nobody Somebody Anyone Things Stuff
    Since Because After Before While When Until Although Though Unless As Like
    Even Once Then Soon Later Luckily Hopefully Unfortunately Fortunately Guess Check Look
    """
)

# Words after "I am a(n)" that start no job title ("I'm a bit tired", "I'm a big fan").
NOT_ROLES: Final = _words(
    """
    bit little lot big huge fan lot total complete real true bad good great terrible bit
    mess wreck sucker part member way while couple few mix bundle ball kind sort
    """
)

# "my <relative> [Name]": the relative's label as a relation from the speaker.
RELATIVES: Final = _words(
    """
    sister brother mom mother mum dad father parents wife husband partner spouse son daughter
    kids children boyfriend girlfriend fiance fiancee fiancé fiancée friend colleague coworker
    co-worker boss manager cousin aunt uncle grandma grandmother grandpa grandfather niece
    nephew roommate flatmate neighbor neighbour mentor teacher therapist doctor
    """
)
SPOUSES: Final = frozenset({"wife", "husband", "spouse"})
# Relatives whose mere existence is a fact worth keeping ("I have two brothers").
FAMILY: Final = _words(
    """
    sister sisters brother brothers wife husband partner spouse boyfriend girlfriend fiance
    fiancee fiancé fiancée cousin cousins aunt uncle niece nephew grandma grandpa
    grandmother grandfather stepson stepdaughter twin
    """
)

# "I have two cats": animals that are pets.
PETS: Final = _words(
    """
    cat dog puppy puppie kitten kittie hamster rabbit bunny bunnie bird parrot fish goldfish
    horse pony turtle tortoise guinea pig snake lizard ferret gerbil chicken hen goat
    """
)

# "I have a car": things whose ownership is a durable fact (only with a count or article).
POSSESSIONS: Final = _words(
    """
    car house home apartment flat bike bicycle motorcycle boat garden farm cabin truck van
    piano guitar violin drum keyboard camera telescope degree tattoo collection studio shop
    business startup company bakery restaurant
    """
)

# "I have asthma": conditions stated with "have".
CONDITIONS: Final = _words(
    """
    asthma diabetes epilepsy migraine migraines arthritis adhd autism anxiety depression
    celiac coeliac eczema hypertension insomnia cancer covid flu cold
    """
)

DIETS: Final = (
    "vegan",
    "vegetarian",
    "pescatarian",
    "gluten-free",
    "keto",
    "teetotal",
    "sober",
)

# Irregular past tenses read as events ("I went to", "I bought").
IRREGULAR_PAST: Final = (
    "went",
    "had",
    "got",
    "made",
    "took",
    "bought",
    "saw",
    "met",
    "ran",
    "began",
    "gave",
    "found",
    "wrote",
    "drew",
    "sang",
    "won",
    "lost",
    "left",
    "came",
    "became",
    "built",
    "taught",
    "brought",
    "caught",
    "flew",
    "drove",
    "rode",
    "swam",
    "ate",
    "spent",
    "sold",
    "read",
    "held",
    "kept",
    "heard",
    "chose",
    "grew",
    "threw",
    "broke",
    "fell",
    "hit",
    "led",
    "paid",
    "put",
    "set",
    "sent",
    "shot",
    "told",
    "did",
)

# Past participles after "have" read as the event's past tense ("I've gone camping" is the
# record "went camping"); "been", "done" and "had" say too little alone, so they are not here.
PARTICIPLES: Final = {
    "gone": "went",
    "seen": "saw",
    "taken": "took",
    "given": "gave",
    "written": "wrote",
    "eaten": "ate",
    "flown": "flew",
    "ridden": "rode",
    "begun": "began",
    "drawn": "drew",
    "sung": "sang",
    "grown": "grew",
    "driven": "drove",
    "swum": "swam",
    "won": "won",
    "run": "ran",
    "become": "became",
    "met": "met",
    "built": "built",
    "bought": "bought",
    "taught": "taught",
    "read": "read",
}

# Past tenses that report a feeling, an opinion or speech, not an event.
NOT_EVENT_VERBS: Final = _words(
    """
    used need feed seed bleed speed proceed succeed exceed indeed red bed shed wed embed
    inspired amazed excited interested surprised tired pleased worried scared bored annoyed
    stressed relieved thrilled impressed touched moved blessed obsessed exhausted overwhelmed
    concerned confused convinced determined motivated prepared supposed involved stuck told
    did wanted needed hoped wished wondered loved liked enjoyed hated seemed sounded looked
    appeared happened realised realized noticed guessed assumed imagined believed figured
    agreed decided managed asked answered called talked mentioned said thanked
    """
)

# Present-tense activities that describe what someone regularly does ("I play guitar").
PRESENT_ACTIVITIES: Final = (
    "play",
    "paint",
    "volunteer",
    "teach",
    "study",
    "practice",
    "practise",
    "collect",
    "coach",
    "run",
    "swim",
    "cook",
    "bake",
    "draw",
    "knit",
    "sing",
    "dance",
    "write",
    "go",
    "attend",
    "train",
    "own",
    "mentor",
    "tutor",
    "host",
    "organize",
    "organise",
    "foster",
    "sew",
    "hike",
    "surf",
    "ski",
    "climb",
)

# "-ing" forms after "I am" that are feelings or fillers, not something someone is doing.
NOT_ONGOING: Final = _words(
    """
    feeling thinking doing going looking wondering hoping trying kidding joking saying
    telling asking being having loving liking enjoying missing getting staying putting
    hanging keeping coming waiting
    amazing interesting exciting inspiring relaxing boring charming challenging rewarding
    refreshing fascinating satisfying encouraging heartwarming touching annoying amusing
    surprising disappointing frustrating overwhelming exhausting terrifying stunning
    """
)

# "I will ...": words that start a promise to the listener or a mood, not a plan.
NOT_PLANS: Final = _words(
    """
    be try see have do need it that let definitely always never keep check tell talk think
    get make miss ask send show give take we i they he she stay
    """
)

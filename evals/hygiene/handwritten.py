"""Build `handwritten.jsonl`: complementary, supersedes and cross-project pairs.

Written by hand for memwarden (no external source; same licence as the repository).
Each tuple below is one pair as a memory service would meet it: agent captures in the
first person, and project facts an application or an agent recorded. Rows alternate
between the `train` and `test` splits within each label; times are fixed per row. A
quarter of the pairs are marked authoritative on both sides so routing's queue shows.

    python evals/hygiene/handwritten.py > evals/hygiene/handwritten.jsonl
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

BASE = datetime(2025, 9, 1, 8, 30, tzinfo=UTC)

# (a, b, a_project, b_project): the same subject, both still true.
COMPLEMENTARY = [
    ("I live in Lisbon.", "I work at Northwind Traders.", None, None),
    ("My favourite food is ramen.", "My favourite drink is cold brew coffee.", None, None),
    ("I work as a nurse at St Mary's hospital.", "I live in Leeds with my partner.", None, None),
    ("I love hiking in the Alps.", "I love jazz, especially Coltrane.", None, None),
    (
        "My manager is Dana Whitfield.",
        "My team is the payments squad.",
        "acme/falcon",
        "acme/falcon",
    ),
    (
        "Falcon's status is public beta since October.",
        "Falcon stores its events in PostgreSQL 16.",
        "acme/falcon",
        "acme/falcon",
    ),
    (
        "The Falcon mobile app uses Flutter.",
        "The Falcon mobile app sends analytics to PostHog.",
        "acme/falcon",
        "acme/falcon",
    ),
    (
        "Osprey's release train ships every second Tuesday.",
        "Osprey's code owners are Ivo and Mei.",
        "acme/osprey",
        "acme/osprey",
    ),
    ("I prefer dark mode in every editor.", "I prefer tabs over spaces.", None, None),
    ("My daughter is called Ines.", "My son plays the cello.", None, None),
    (
        "The billing service is written in Go.",
        "The billing service is deployed to eu-west-1.",
        "globex/billing",
        "globex/billing",
    ),
    (
        "The billing service retries webhooks three times.",
        "The billing service exposes metrics on port 9102.",
        "globex/billing",
        "globex/billing",
    ),
    ("I'm a vegetarian.", "I drink oat milk in coffee.", None, None),
    ("My dentist is Dr. Okafor.", "My GP is Dr. Lindqvist.", None, None),
    (
        "Heron's design doc lives in the wiki under Architecture/Heron.",
        "Heron's status is on hold until the Q3 budget review.",
        "initech/heron",
        "initech/heron",
    ),
    (
        "Heron uses Kafka for its event bus.",
        "Heron uses Redis for session caching.",
        "initech/heron",
        "initech/heron",
    ),
    ("I speak Portuguese and English.", "I'm learning Japanese on Duolingo.", None, None),
    ("My car is a 2019 Skoda Octavia.", "My bike is a Brompton.", None, None),
    (
        "The staging cluster is called sandpiper.",
        "The staging cluster resets every Sunday at 02:00 UTC.",
        "acme/falcon",
        "acme/falcon",
    ),
    (
        "The API's rate limit is 600 requests per minute per key.",
        "The API's authentication uses OAuth 2 client credentials.",
        "globex/api",
        "globex/api",
    ),
    ("I like thrillers.", "I like cooking Thai food.", None, None),
    ("My birthday is on 14 March.", "My wedding anniversary is on 2 June.", None, None),
    (
        "Kestrel's frontend is React with Vite.",
        "Kestrel's backend is Django 5.",
        "umbrella/kestrel",
        "umbrella/kestrel",
    ),
    (
        "Kestrel's product owner is Sam Reyes.",
        "Kestrel's tech lead is Noor Haddad.",
        "umbrella/kestrel",
        "umbrella/kestrel",
    ),
    (
        "I work remotely on Mondays and Fridays.",
        "I'm in the Berlin office on Wednesdays.",
        None,
        None,
    ),
    ("My preferred airline is KLM.", "My preferred seat is an aisle seat.", None, None),
    (
        "The data warehouse is Snowflake.",
        "The data warehouse refreshes nightly at 01:00.",
        "acme/analytics",
        "acme/analytics",
    ),
    (
        "Analytics dashboards are built in Metabase.",
        "Analytics events are named in snake_case.",
        "acme/analytics",
        "acme/analytics",
    ),
    ("I hate early meetings.", "I enjoy pair programming.", None, None),
    ("My cat is called Miso.", "My dog is a border collie named Pip.", None, None),
    (
        "The iOS app's minimum version is iOS 16.",
        "The iOS app is released through TestFlight first.",
        "acme/falcon",
        "acme/falcon",
    ),
    (
        "The support rota covers weekends in pairs.",
        "The support rota is managed in Opsgenie.",
        "globex/support",
        "globex/support",
    ),
    ("I'm a big fan of Arsenal.", "I play five-a-side football on Thursdays.", None, None),
    ("My home city is Porto.", "My current city is Rotterdam.", None, None),
    (
        "Osprey's database migrations run with Alembic.",
        "Osprey's search uses OpenSearch.",
        "acme/osprey",
        "acme/osprey",
    ),
    (
        "Osprey is licensed under Apache 2.0.",
        "Osprey's documentation is built with MkDocs.",
        "acme/osprey",
        "acme/osprey",
    ),
    ("I love sushi.", "I dislike coriander.", None, None),
    ("My role is staff engineer.", "My team is platform infrastructure.", None, None),
    (
        "The monorepo uses Bazel.",
        "The monorepo's CI runs on Buildkite.",
        "initech/mono",
        "initech/mono",
    ),
    (
        "Heron's SLA is 99.9% monthly uptime.",
        "Heron's incident channel is #heron-incidents.",
        "initech/heron",
        "initech/heron",
    ),
    ("I enjoy bouldering.", "I enjoy sourdough baking.", None, None),
    ("My timezone is Europe/Madrid.", "My working hours are 9 to 5.", None, None),
    (
        "The payments API returns amounts in minor units.",
        "The payments API signs responses with Ed25519.",
        "globex/api",
        "globex/api",
    ),
    (
        "Kestrel's feature flags live in LaunchDarkly.",
        "Kestrel's error tracking is Sentry.",
        "umbrella/kestrel",
        "umbrella/kestrel",
    ),
]

# (older, newer, project): the newer replaces the older (same fact of the same subject).
SUPERSEDES = [
    ("I work at Acme.", "I work at Globex now.", None),
    ("I live in Oslo.", "I live in Rome.", None),
    ("My favourite food is pizza.", "My favourite food is pho.", None),
    ("Falcon's status is private alpha.", "Falcon's status is public beta.", "acme/falcon"),
    ("The Falcon release is planned for March.", "The Falcon release moved to May.", "acme/falcon"),
    ("My manager is Dana Whitfield.", "My manager is Lee Park.", None),
    (
        "Osprey's tech lead is Ivo.",
        "Osprey's tech lead is Mei now that Ivo moved teams.",
        "acme/osprey",
    ),
    (
        "The billing service runs on Go 1.21.",
        "The billing service was upgraded to Go 1.23.",
        "globex/billing",
    ),
    ("I'm a junior developer.", "I'm a senior developer.", None),
    ("My phone number ends in 4471.", "My new phone number ends in 9902.", None),
    ("Heron's status is active.", "Heron's status is on hold.", "initech/heron"),
    (
        "The API's rate limit is 300 requests per minute.",
        "The API's rate limit is 600 requests per minute.",
        "globex/api",
    ),
    ("My role is team lead.", "My role is engineering manager.", None),
    ("I live in Madrid.", "Actually, I live in Valencia.", None),
    (
        "The staging cluster is called plover.",
        "The staging cluster was renamed to sandpiper.",
        "acme/falcon",
    ),
    (
        "Kestrel's product owner is Sam Reyes.",
        "Kestrel's product owner is Ana Duarte.",
        "umbrella/kestrel",
    ),
    ("My favourite band is Radiohead.", "My favourite band is Wet Leg these days.", None),
    (
        "The data warehouse is Redshift.",
        "The data warehouse migrated to Snowflake.",
        "acme/analytics",
    ),
    ("I work at Initech.", "I work at Umbrella.", None),
    (
        "The on-call rotation is daily.",
        "The on-call rotation is weekly from January.",
        "acme/falcon",
    ),
    ("My car is a Golf.", "My car is a Tesla Model 3.", None),
    (
        "Osprey's minimum Python version is 3.10.",
        "Osprey's minimum Python version is 3.12.",
        "acme/osprey",
    ),
    ("I'm based in London.", "I'm based in Dublin since the move.", None),
    (
        "Heron's message broker is RabbitMQ.",
        "Heron's message broker is Kafka after the migration.",
        "initech/heron",
    ),
    ("My dentist is Dr. Okafor.", "My dentist is Dr. Brandt.", None),
    (
        "The iOS app's minimum version is iOS 15.",
        "The iOS app's minimum version is iOS 16.",
        "acme/falcon",
    ),
    ("My title is data analyst.", "My title is data scientist.", None),
    (
        "The support rota is managed in PagerDuty.",
        "The support rota is managed in Opsgenie.",
        "globex/support",
    ),
    ("Kestrel's backend is Django 4.2.", "Kestrel's backend is Django 5.", "umbrella/kestrel"),
    ("My preferred airline is Iberia.", "My preferred airline is KLM.", None),
    ("The monorepo's CI runs on Jenkins.", "The monorepo's CI runs on Buildkite.", "initech/mono"),
    ("I live in Kraków.", "I moved; I live in Gdańsk.", None),
    ("The payments API version is v2.", "The payments API version is v3.", "globex/api"),
    ("My working hours are 8 to 4.", "My working hours are 10 to 6.", None),
    ("Falcon's database is MySQL 8.", "Falcon's database is PostgreSQL 16.", "acme/falcon"),
    ("My partner is called Jo.", "My partner is called Sasha.", None),
    (
        "The nightly backup runs at 03:00 UTC.",
        "The nightly backup runs at 01:30 UTC.",
        "globex/billing",
    ),
    ("I work at Contoso as a tester.", "I work at Fabrikam as a QA lead.", None),
    (
        "Heron's owner team is Platform.",
        "Heron's owner team is Data Infrastructure.",
        "initech/heron",
    ),
    ("My timezone is Europe/London.", "My timezone is America/Toronto.", None),
    (
        "Kestrel's error tracking is Rollbar.",
        "Kestrel's error tracking is Sentry.",
        "umbrella/kestrel",
    ),
    ("My gym is PureGym Leeds.", "My gym is The Climbing Hangar.", None),
    ("Osprey's docs are built with Sphinx.", "Osprey's docs are built with MkDocs.", "acme/osprey"),
    ("The sprint length is three weeks.", "The sprint length is two weeks.", "acme/falcon"),
]

# (a, b, a_project, b_project): different projects (owners or slugs), words alike.
CROSS_PROJECT = [
    (
        "Use pnpm, never npm, in this repo.",
        "Use npm for installs in this repo.",
        "acme/falcon",
        "acme/osprey",
    ),
    (
        "Tests live in tests/unit and tests/integration.",
        "Tests live in spec/ next to each module.",
        "acme/falcon",
        "globex/billing",
    ),
    (
        "The config file is config/settings.toml.",
        "The config file is config/settings.yaml.",
        "acme/falcon",
        "acme/heron",
    ),
    (
        "Run make lint before every commit.",
        "Run just check before every commit.",
        "initech/mono",
        "initech/heron",
    ),
    (
        "The main branch is protected; merge through pull requests.",
        "Push directly to main for hotfixes.",
        "acme/falcon",
        "umbrella/kestrel",
    ),
    (
        "The status of the project is beta.",
        "The status of the project is deprecated.",
        "acme/falcon",
        "acme/kite",
    ),
    (
        "The project's database is PostgreSQL.",
        "The project's database is MongoDB.",
        "acme/falcon",
        "globex/falcon",
    ),
    (
        "src/app/main.py is the entry point.",
        "src/app/main.py only holds the CLI.",
        "acme/osprey",
        "acme/falcon",
    ),
    (
        "Format code with black at line length 88.",
        "Format code with ruff at line length 100.",
        "globex/api",
        "globex/billing",
    ),
    (
        "Release notes go in CHANGELOG.md.",
        "Release notes go in docs/releases.md.",
        "umbrella/kestrel",
        "umbrella/lark",
    ),
    (
        "Deploy with helm upgrade from the deploy/ folder.",
        "Deploy with terraform apply from infra/.",
        "acme/falcon",
        "acme/osprey",
    ),
    ("The default port is 8080.", "The default port is 3000.", "initech/heron", "initech/mono"),
    (
        "The team's stand-up is at 09:30.",
        "The team's stand-up is at 10:15.",
        "acme/falcon",
        "globex/falcon",
    ),
    (
        "Use tabs for indentation in Go files.",
        "Use two spaces for indentation everywhere.",
        "globex/billing",
        "globex/web",
    ),
    (
        "Environment variables are prefixed APP_.",
        "Environment variables are prefixed OSPREY_.",
        "acme/falcon",
        "acme/osprey",
    ),
    ("The API base path is /v1.", "The API base path is /api/v2.", "globex/api", "initech/api"),
    (
        "Migrations are numbered 0001_name.sql.",
        "Migrations are timestamped 20240101_name.sql.",
        "acme/osprey",
        "umbrella/kestrel",
    ),
    (
        "The owner of this project is Dana.",
        "The owner of this project is Lee.",
        "acme/falcon",
        "acme/osprey",
    ),
    (
        "Never commit the .env file.",
        "Commit .env.example but never .env.local.",
        "initech/heron",
        "acme/heron",
    ),
    (
        "The product name is Falcon.",
        "The product name is Falcon Pro.",
        "acme/falcon",
        "umbrella/falcon",
    ),
    ("Python 3.12 is required.", "Python 3.10 is the minimum.", "acme/osprey", "globex/billing"),
    (
        "Logs are JSON lines to stdout.",
        "Logs are plain text to /var/log/app.log.",
        "acme/falcon",
        "initech/mono",
    ),
    (
        "The docs site is built with MkDocs.",
        "The docs site is built with Docusaurus.",
        "acme/osprey",
        "umbrella/kestrel",
    ),
    (
        "Feature flags are read from flags.yaml.",
        "Feature flags come from LaunchDarkly.",
        "globex/web",
        "umbrella/kestrel",
    ),
    (
        "CI must pass on three Python versions.",
        "CI runs one Python version only.",
        "acme/osprey",
        "acme/falcon",
    ),
    (
        "The frontend lives in web/.",
        "The frontend lives in apps/frontend/.",
        "initech/mono",
        "initech/heron",
    ),
    (
        "Use conventional commits for messages.",
        "Commit messages are free text, one line.",
        "acme/falcon",
        "globex/api",
    ),
    (
        "The release branch is release/x.y.",
        "Releases are cut from tags on main.",
        "umbrella/kestrel",
        "umbrella/lark",
    ),
    ("The cache TTL is 300 seconds.", "The cache TTL is one hour.", "globex/api", "globex/billing"),
    (
        "Secrets are kept in Vault under kv/falcon.",
        "Secrets are kept in AWS Secrets Manager.",
        "acme/falcon",
        "acme/osprey",
    ),
    ("The license is MIT.", "The license is AGPL-3.0.", "acme/kite", "acme/osprey"),
    (
        "The build output goes to dist/.",
        "The build output goes to build/.",
        "globex/web",
        "initech/web",
    ),
    (
        "The test database is SQLite in memory.",
        "The test database is a real PostgreSQL.",
        "umbrella/kestrel",
        "acme/osprey",
    ),
    (
        "Code review needs two approvals.",
        "Code review needs one approval.",
        "acme/falcon",
        "globex/falcon",
    ),
    (
        "The service listens on a Unix socket.",
        "The service listens on TCP port 9000.",
        "initech/heron",
        "initech/mono",
    ),
    (
        "Translations are stored in locales/*.po.",
        "Translations are stored in i18n/*.json.",
        "umbrella/lark",
        "umbrella/kestrel",
    ),
    (
        "Use the dev container for local work.",
        "Use a local virtualenv for local work.",
        "acme/osprey",
        "acme/falcon",
    ),
    ("The sprint ends on Thursdays.", "The sprint ends on Fridays.", "acme/falcon", "acme/osprey"),
    (
        "The status page is status.acme.io.",
        "The status page is status.globex.com.",
        "acme/falcon",
        "globex/api",
    ),
    (
        "Error codes are strings like E_TIMEOUT.",
        "Error codes are numeric HTTP-like codes.",
        "globex/api",
        "initech/api",
    ),
    # provenance does not know one side's project: the filter cannot skip these
    ("The main config is settings.toml.", "The main config is settings.yaml.", "acme/falcon", None),
    ("Run the tests with tox.", "Run the tests with nox.", None, "acme/osprey"),
    ("The default branch is main.", "The default branch is trunk.", None, "initech/mono"),
    ("Deploys happen on Tuesdays.", "Deploys happen on Thursdays.", "globex/billing", None),
]


def _row(
    n: int,
    label: str,
    a: str,
    b: str,
    times: tuple[datetime, datetime],
    projects: tuple[str | None, str | None],
    superseding: str | None,
    split: str,
    authoritative: bool,
) -> dict[str, object]:
    row: dict[str, object] = {
        "id": f"hw-{label}-{n:02d}",
        "a": a,
        "b": b,
        "a_time": times[0].isoformat(),
        "b_time": times[1].isoformat(),
        "a_project": projects[0],
        "b_project": projects[1],
        "label": label,
        "superseding": superseding,
        "split": split,
        "source": "memwarden/handwritten",
    }
    if authoritative:
        row["a_rank"] = row["b_rank"] = "authoritative"
    return row


def main() -> None:
    rows = []
    for n, (a, b, pa, pb) in enumerate(COMPLEMENTARY):
        t = BASE + timedelta(days=3 * n, hours=n % 7)
        times = (t, t + timedelta(days=n % 5 + 1)) if n % 2 else (t + timedelta(days=2), t)
        rows.append(
            _row(
                n,
                "complementary",
                a,
                b,
                times,
                (pa, pb),
                None,
                "train" if n % 2 == 0 else "test",
                n % 8 in (2, 3),
            )
        )
    for n, (older, newer, project) in enumerate(SUPERSEDES):
        t_old = BASE + timedelta(days=2 * n, hours=n % 5)
        t_new = t_old + timedelta(days=10 + n % 40)
        # both directions: the newer memory is `b` on even rows and `a` on odd ones
        if n % 2 == 0:
            a, b, times, winner = older, newer, (t_old, t_new), "b"
        else:
            a, b, times, winner = newer, older, (t_new, t_old), "a"
        split = "train" if (n // 2) % 2 == 0 else "test"
        rows.append(
            _row(n, "supersedes", a, b, times, (project, project), winner, split, n % 8 in (1, 6))
        )
    for n, (a, b, pa, pb) in enumerate(CROSS_PROJECT):
        t = BASE + timedelta(days=5 * n)
        rows.append(
            _row(
                n,
                "cross_project",
                a,
                b,
                (t, t + timedelta(days=1 + n % 9)),
                (pa, pb),
                None,
                "train" if n % 2 == 0 else "test",
                n % 8 in (2, 3),
            )
        )
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
